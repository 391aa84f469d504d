import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, InboxMessageTable, InboxRelayTable, InboxTable } from '../db/schema.ts';
import type { MessageFilter } from './schemas.ts';
import { countedSlice, pageSlice, type Slice } from '../db/counted-page.ts';

export type InboxRow = Selectable<InboxTable>;
export type MessageRow = Selectable<InboxMessageTable>;
export type RelayRow = Selectable<InboxRelayTable>;

export async function insertInbox(db: Kysely<Database>, row: Insertable<InboxTable>): Promise<void> {
  await db.insertInto('inboxes').values(row).execute();
}

export async function findInbox(db: Kysely<Database>, uuid: string): Promise<InboxRow | undefined> {
  return db.selectFrom('inboxes').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function updateInboxRow(db: Kysely<Database>, uuid: string, changes: Updateable<InboxTable>): Promise<void> {
  await db.updateTable('inboxes').set(changes).where('uuid', '=', uuid).execute();
}

/** Counts one more request for rules that match by message number; its number. */
export async function countRuleMessage(db: Kysely<Database>, uuid: string): Promise<number> {
  const row = await db
    .updateTable('inboxes')
    .set((eb) => ({ rules_message_count: eb('rules_message_count', '+', 1) }))
    .where('uuid', '=', uuid)
    .returning('rules_message_count')
    .executeTakeFirst();
  return row?.rules_message_count ?? 1;
}

/** Deletes the inbox with its messages and relays (cascade). */
export async function deleteInboxRow(db: Kysely<Database>, uuid: string): Promise<boolean> {
  const result = await db.deleteFrom('inboxes').where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Oldest first, so an inbox keeps its place in the list. */
export async function listInboxRows(
  db: Kysely<Database>,
  organizationUuid: string,
  page: number,
  perPage: number,
): Promise<{ rows: InboxRow[]; total: number }> {
  const base = db.selectFrom('inboxes').where('organization_uuid', '=', organizationUuid);
  return countedSlice(base, pageSlice({ page, per_page: perPage }), (q) => q.selectAll().orderBy('created_on', 'asc').orderBy('uuid'));
}

export async function countMessages(db: Kysely<Database>, inboxUuids: string[]): Promise<Map<string, number>> {
  if (inboxUuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('inbox_messages')
    .select(['inbox_uuid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('inbox_uuid', 'in', inboxUuids)
    .groupBy('inbox_uuid')
    .execute();
  return new Map(rows.map((r) => [r.inbox_uuid, Number(r.n)]));
}

export async function insertMessage(db: Kysely<Database>, row: Insertable<InboxMessageTable>): Promise<number> {
  const inserted = await db.insertInto('inbox_messages').values(row).returning('seq').executeTakeFirstOrThrow();
  return inserted.seq;
}

export async function updateMessage(db: Kysely<Database>, uuid: string, changes: Updateable<InboxMessageTable>): Promise<void> {
  await db.updateTable('inbox_messages').set(changes).where('uuid', '=', uuid).execute();
}

export async function findMessage(db: Kysely<Database>, inboxUuid: string, uuid: string): Promise<MessageRow | undefined> {
  return db.selectFrom('inbox_messages').selectAll().where('inbox_uuid', '=', inboxUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export interface DuplicateKeys {
  deliveryId: string | null;
  signature: string | null;
  eventId: string | null;
}

/** The earliest earlier message of the inbox sharing a delivery id, signature or event id, and which one matched. */
export async function findFirstDuplicate(
  db: Kysely<Database>,
  inboxUuid: string,
  beforeSeq: number,
  keys: DuplicateKeys,
): Promise<{ uuid: string; by: 'delivery_id' | 'signature' | 'event_id' } | null> {
  const candidates: Array<{ uuid: string; seq: number; by: 'delivery_id' | 'signature' | 'event_id' }> = [];
  const probes = [
    ['delivery_id', keys.deliveryId],
    ['signature', keys.signature],
    ['event_id', keys.eventId],
  ] as const;
  for (const [column, value] of probes) {
    if (value === null) continue;
    const row = await db
      .selectFrom('inbox_messages')
      .select(['uuid', 'seq'])
      .where('inbox_uuid', '=', inboxUuid)
      .where(column, '=', value)
      .where('seq', '<', beforeSeq)
      .orderBy('seq', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (row) candidates.push({ ...row, by: column });
  }
  candidates.sort((a, b) => a.seq - b.seq);
  const first = candidates[0];
  return first ? { uuid: first.uuid, by: first.by } : null;
}

function filteredMessages(db: Kysely<Database>, inboxUuid: string, filter: MessageFilter) {
  let base = db.selectFrom('inbox_messages').where('inbox_uuid', '=', inboxUuid);
  if (filter.event_type !== undefined) base = base.where('event_type', '=', filter.event_type);
  if (filter.decrypted !== undefined) base = base.where('decrypted', '=', filter.decrypted ? 1 : 0);
  if (filter.signature_status !== undefined) base = base.where('signature_status', '=', filter.signature_status);
  if (filter.duplicate !== undefined) base = base.where('duplicate_of', filter.duplicate ? 'is not' : 'is', null);
  if (filter.from !== undefined) base = base.where('received_on', '>=', filter.from);
  if (filter.to !== undefined) base = base.where('received_on', '<', filter.to);
  return base;
}

/** What the list filters look at, as a stored row and as the receiver's inbox.message announcement carry it. */
export interface FilteredFields {
  event_type: string | null;
  decrypted: boolean | number;
  signature_status: string;
  duplicate_of: string | null;
  received_on: string;
}

/** filteredMessages' filter checked in memory, without a query: the same conditions. */
export function passesFilter(message: FilteredFields, filter: MessageFilter): boolean {
  return (
    (filter.event_type === undefined || message.event_type === filter.event_type) &&
    (filter.decrypted === undefined || Boolean(message.decrypted) === filter.decrypted) &&
    (filter.signature_status === undefined || message.signature_status === filter.signature_status) &&
    (filter.duplicate === undefined || (message.duplicate_of !== null) === filter.duplicate) &&
    (filter.from === undefined || message.received_on >= filter.from) &&
    (filter.to === undefined || message.received_on < filter.to)
  );
}

/** Newest first (or oldest first), with the filters of the messages list. */
export async function listMessageRows(
  db: Kysely<Database>,
  inboxUuid: string,
  filter: MessageFilter,
  page: Slice & { oldestFirst?: boolean },
): Promise<{ rows: MessageRow[]; total: number }> {
  return countedSlice(filteredMessages(db, inboxUuid, filter), page, (q) =>
    q.selectAll().orderBy('seq', page.oldestFirst ? 'asc' : 'desc'),
  );
}

/** A message row as a list reads it: the body's first bytes and sizes instead of the body, the plaintext only when small. */
export type MessageItemRow = Omit<MessageRow, 'body' | 'plaintext'> & {
  body_head: Buffer;
  body_size: number;
  plaintext: string | null;
  plaintext_size: number | null;
};

const ITEM_COLUMNS = [
  'seq',
  'uuid',
  'inbox_uuid',
  'organization_uuid',
  'received_on',
  'method',
  'path',
  'raw_headers',
  'body_truncated',
  'remote_address',
  'analyzed',
  'decrypted',
  'decryption_problem',
  'decryption_error',
  'signature_status',
  'verified_with',
  'hints',
  'signature',
  'delivery_id',
  'event_id',
  'event_type',
  'duplicate_of',
  'duplicate_by',
  'answer',
  'answered_status',
  'answered_after_ms',
  'answered_by_rule',
  'attempt',
] as const;

/** Newest first, with the filters of the messages list; never more than `headBytes` of a body nor a plaintext over `maxPlaintextBytes`. */
export async function listMessageItemRows(
  db: Kysely<Database>,
  inboxUuid: string,
  filter: MessageFilter,
  page: Slice,
  limits: { headBytes: number; maxPlaintextBytes: number },
): Promise<{ rows: MessageItemRow[]; total: number }> {
  return countedSlice(filteredMessages(db, inboxUuid, filter), page, (q) => q.select(itemSelection(limits)).orderBy('seq', 'desc'));
}

function itemSelection(limits: { headBytes: number; maxPlaintextBytes: number }) {
  return [
    ...ITEM_COLUMNS,
    sql<Buffer>`coalesce(substr(body, 1, ${limits.headBytes}), x'')`.as('body_head'),
    sql<number>`length(body)`.as('body_size'),
    sql<number | null>`octet_length(plaintext)`.as('plaintext_size'),
    sql<string | null>`case when octet_length(plaintext) <= ${limits.maxPlaintextBytes} then plaintext end`.as('plaintext'),
  ] as const;
}

/** Messages of the inbox after `seq` that pass the filter, oldest first, bounded like a list's items. */
export async function messageItemRowsAfter(
  db: Kysely<Database>,
  inboxUuid: string,
  filter: MessageFilter,
  seq: number,
  limit: number,
  limits: { headBytes: number; maxPlaintextBytes: number },
): Promise<MessageItemRow[]> {
  return filteredMessages(db, inboxUuid, filter)
    .where('seq', '>', seq)
    .select(itemSelection(limits))
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

/** Any messages of the inbox (no filter) after `seq`, or those named, oldest first, bounded like a list's items. */
export async function messageItemRowsOf(
  db: Kysely<Database>,
  inboxUuid: string,
  which: { afterSeq: number; limit: number } | { uuids: string[] },
  limits: { headBytes: number; maxPlaintextBytes: number },
): Promise<MessageItemRow[]> {
  const base = db.selectFrom('inbox_messages').where('inbox_uuid', '=', inboxUuid).select(itemSelection(limits)).orderBy('seq', 'asc');
  if ('uuids' in which) return which.uuids.length === 0 ? [] : base.where('uuid', 'in', which.uuids).execute();
  return base.where('seq', '>', which.afterSeq).limit(which.limit).execute();
}

/** The seq of the inbox's newest message, 0 when it has none. */
export async function lastSeqOf(db: Kysely<Database>, inboxUuid: string): Promise<number> {
  const row = await db
    .selectFrom('inbox_messages')
    .select('seq')
    .where('inbox_uuid', '=', inboxUuid)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.seq ?? 0;
}

/** The seq of the first message of the inbox that carries this event id. */
export async function firstSeqOfEvent(db: Kysely<Database>, inboxUuid: string, eventId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('inbox_messages')
    .select('seq')
    .where('inbox_uuid', '=', inboxUuid)
    .where('event_id', '=', eventId)
    .orderBy('seq', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.seq;
}

/** Messages of the inbox after `seq`, oldest first. */
export async function messagesAfter(db: Kysely<Database>, inboxUuid: string, seq: number, limit: number): Promise<MessageRow[]> {
  return db
    .selectFrom('inbox_messages')
    .selectAll()
    .where('inbox_uuid', '=', inboxUuid)
    .where('seq', '>', seq)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

/** Deletes every message of the inbox and starts its dropped count afresh. */
export async function deleteMessages(db: Kysely<Database>, inboxUuid: string): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const result = await tx.deleteFrom('inbox_messages').where('inbox_uuid', '=', inboxUuid).executeTakeFirst();
    await tx.updateTable('inboxes').set({ dropped_messages: 0 }).where('uuid', '=', inboxUuid).execute();
    return Number(result.numDeletedRows);
  });
}

/**
 * Keeps the newest `keep` messages of the inbox: the older ones (and their relays) are deleted
 * and counted in inboxes.dropped_messages. Both steps walk the (inbox_uuid, seq) index.
 */
export async function dropOldestMessages(db: Kysely<Database>, inboxUuid: string, keep: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const cutoff = await tx
      .selectFrom('inbox_messages')
      .select('seq')
      .where('inbox_uuid', '=', inboxUuid)
      .orderBy('seq', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (!cutoff) return 0;
    const result = await tx
      .deleteFrom('inbox_messages')
      .where('inbox_uuid', '=', inboxUuid)
      .where('seq', '<=', cutoff.seq)
      .executeTakeFirst();
    const dropped = Number(result.numDeletedRows);
    await tx
      .updateTable('inboxes')
      .set((eb) => ({ dropped_messages: eb('dropped_messages', '+', dropped) }))
      .where('uuid', '=', inboxUuid)
      .execute();
    return dropped;
  });
}

export async function insertRelay(db: Kysely<Database>, row: Insertable<InboxRelayTable>): Promise<void> {
  await db.insertInto('inbox_relays').values(row).execute();
}

export async function updateRelay(db: Kysely<Database>, uuid: string, changes: Updateable<InboxRelayTable>): Promise<void> {
  await db.updateTable('inbox_relays').set(changes).where('uuid', '=', uuid).execute();
}

/** Relays of these messages, oldest first, grouped by message. */
export async function relaysOf(db: Kysely<Database>, messageUuids: string[]): Promise<Map<string, RelayRow[]>> {
  const grouped = new Map<string, RelayRow[]>();
  if (messageUuids.length === 0) return grouped;
  const rows = await db.selectFrom('inbox_relays').selectAll().where('message_uuid', 'in', messageUuids).orderBy('seq', 'asc').execute();
  for (const row of rows) {
    const list = grouped.get(row.message_uuid) ?? [];
    list.push(row);
    grouped.set(row.message_uuid, list);
  }
  return grouped;
}

/**
 * A read-only look at the webhooks capability's table: the live webhooks of the organization whose
 * URL path is /inbox/{uuid} (any host: 127.0.0.1, localhost or a tunnel), with their secrets.
 */
export async function webhooksPointingAt(
  db: Kysely<Database>,
  organizationUuid: string,
  inboxUuid: string,
): Promise<Array<{ uuid: string; secret: string }>> {
  const rows = await db
    .selectFrom('webhooks')
    .select(['uuid', 'url', 'secret'])
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null)
    .where('url', 'like', `%/inbox/${inboxUuid}%`)
    .orderBy('seq')
    .execute();
  return rows.filter((row) => {
    try {
      return new URL(row.url).pathname.replace(/\/+$/, '') === `/inbox/${inboxUuid}`;
    } catch {
      return false;
    }
  });
}
