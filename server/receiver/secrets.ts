import type { AppContext } from '../context.ts';
import type { SecretCandidate } from '../tools/inspect.ts';
import { inboxSecrets } from './inboxes.ts';
import type { InboxRow } from './store.ts';

/** Every secret a delivery to this inbox may be signed with: the inbox's own, in order. */
export async function knownSecrets(_ctx: AppContext, inbox: InboxRow): Promise<SecretCandidate[]> {
  const own = inboxSecrets(inbox);
  return own.map((secret, i) => ({ label: own.length === 1 ? 'inbox secret' : `inbox secret ${i + 1} of ${own.length}`, secret }));
}
