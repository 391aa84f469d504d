import type { ReceiverStore } from './deps.ts';
import { headerObject, parsePairs } from './headers.ts';
import { requireInbox } from './inboxes.ts';
import { judgeRequest, verdictColumns } from './receive.ts';
import { knownSecrets } from './secrets.ts';
import { findFirstDuplicate, messagesAfter, updateMessage } from './store.ts';

const SLICE = 200;

/**
 * Judges every stored message of the inbox again with the secrets known now (after a secret was
 * added, or a webhook registered at the inbox's URL). Answers and duplicates stay as they were,
 * except for a message the server stopped before judging, which gets its duplicate check too.
 */
export async function reverifyMessages(
  ctx: ReceiverStore,
  organizationUuid: string,
  inboxUuid: string,
): Promise<{ checked: number; changed: number }> {
  const inbox = await requireInbox(ctx, organizationUuid, inboxUuid);
  const secrets = await knownSecrets(ctx, inbox);
  let checked = 0;
  let changed = 0;
  for (let after = 0; ; ) {
    const rows = await messagesAfter(ctx.db.kysely, inbox.uuid, after, SLICE);
    for (const row of rows) {
      const headers = headerObject(parsePairs(row.raw_headers));
      const incomplete =
        row.body_truncated === 1 || row.decryption_problem === 'BODY_INCOMPLETE'
          ? (row.decryption_error ?? 'The body is incomplete.')
          : null;
      const columns = verdictColumns(judgeRequest(Buffer.from(row.body), headers, secrets, incomplete));
      const duplicate =
        row.analyzed === 1
          ? null
          : await findFirstDuplicate(ctx.db.kysely, inbox.uuid, row.seq, {
              deliveryId: row.delivery_id,
              signature: columns.signature,
              eventId: columns.event_id,
            });
      await updateMessage(ctx.db.kysely, row.uuid, {
        ...columns,
        ...(row.analyzed === 1 ? {} : { duplicate_of: duplicate?.uuid ?? null, duplicate_by: duplicate?.by ?? null }),
      });
      checked += 1;
      if (
        row.analyzed !== 1 ||
        row.decrypted !== columns.decrypted ||
        row.signature_status !== columns.signature_status ||
        row.verified_with !== columns.verified_with
      )
        changed += 1;
    }
    const last = rows.at(-1);
    if (!last || rows.length < SLICE) return { checked, changed };
    after = last.seq;
  }
}
