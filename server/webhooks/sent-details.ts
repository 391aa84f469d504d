import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { INBOX_PATH_PREFIX } from '../receiver/inbox-path.ts';
import { SIGNATURE_HEADER } from '../wire-format/headers.ts';
import { open } from '../wire-format/open.ts';
import { envelopeSchema } from '../wire-format/schemas.ts';
import type { Delivery } from './schemas.ts';

const INBOX_PATH = new RegExp(`^${INBOX_PATH_PREFIX}([0-9a-f-]{36})/?$`, 'i');

/** The uuid of the local inbox a webhook URL points to (http://127.0.0.1:P/inbox/{uuid}), when it is one of this organization's. */
async function localInbox(db: Kysely<Database>, organizationUuid: string, url: string): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const uuid = INBOX_PATH.exec(parsed.pathname)?.[1];
  if (!uuid) return null;
  const inbox = await db
    .selectFrom('inboxes')
    .select('uuid')
    .where('uuid', '=', uuid)
    .where('organization_uuid', '=', organizationUuid)
    .executeTakeFirst();
  return inbox?.uuid ?? null;
}

/**
 * Fills in what the delivery log shows besides the receiver's answer: the payload decrypted from
 * the last body sent (the server knows the webhook's secret), and for a webhook whose URL is a
 * local inbox, the inbox and the inspector message each attempt became.
 */
export async function withSentDetails(
  db: Kysely<Database>,
  webhook: { organization_uuid: string; url: string; secret: string },
  deliveries: Delivery[],
): Promise<Delivery[]> {
  const inboxUuid = await localInbox(db, webhook.organization_uuid, webhook.url);
  const messages = new Map<string, string>();
  if (inboxUuid !== null && deliveries.length > 0) {
    const rows = await db
      .selectFrom('inbox_messages')
      .select(['uuid', 'delivery_id', 'attempt'])
      .where('inbox_uuid', '=', inboxUuid)
      .where(
        'delivery_id',
        'in',
        deliveries.map((d) => d.delivery_id),
      )
      .orderBy('seq')
      .execute();
    for (const row of rows) if (row.delivery_id && row.attempt) messages.set(`${row.delivery_id}#${row.attempt}`, row.uuid);
  }
  return deliveries.map((delivery) => {
    const last = delivery.attempts.findLast((a) => a.request_body !== null && a.request_headers !== null);
    let payload: Delivery['payload'] = null;
    let verified: boolean | null = null;
    const signature = last?.request_headers?.[SIGNATURE_HEADER];
    if (last?.request_body && signature) {
      try {
        const opened = open(last.request_body, signature, webhook.secret);
        const envelope = envelopeSchema.safeParse(opened.json);
        payload = envelope.success ? envelope.data : opened.plaintext;
        verified = opened.verified;
      } catch {
        verified = false;
      }
    }
    return {
      ...delivery,
      payload,
      payload_verified: verified,
      inbox_uuid: inboxUuid,
      attempts: delivery.attempts.map((a) => ({ ...a, inbox_message_uuid: messages.get(`${delivery.delivery_id}#${a.attempt}`) ?? null })),
    };
  });
}
