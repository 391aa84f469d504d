import type { ReceiverStore } from './deps.ts';
import type { SecretCandidate } from '../wire-format/open.ts';
import { inboxSecrets } from './inboxes.ts';
import { webhooksPointingAt, type InboxRow } from './store.ts';

/**
 * Every secret a delivery to this inbox may be signed with: those of the organization's webhooks
 * registered here whose URL is this inbox, then the inbox's own, in order.
 */
export async function knownSecrets(ctx: ReceiverStore, inbox: InboxRow): Promise<SecretCandidate[]> {
  const webhooks = await webhooksPointingAt(ctx.db.kysely, inbox.organization_uuid, inbox.uuid);
  const own = inboxSecrets(inbox);
  return [
    ...webhooks.map((w) => ({ label: `webhook ${w.uuid}`, secret: w.secret })),
    ...own.map((secret, i) => ({ label: own.length === 1 ? 'inbox secret' : `inbox secret ${i + 1} of ${own.length}`, secret })),
  ];
}
