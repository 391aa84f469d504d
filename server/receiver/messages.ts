import { isUtf8 } from 'node:buffer';
import { pageSlice, type Slice } from '../db/counted-page.ts';
import type { ReceiverStore } from './deps.ts';
import { notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import type { Hint } from '../tools/schemas.ts';
import { headerObject, parsePairs } from './headers.ts';
import { requireInbox } from './inboxes.ts';
import { toRelay } from './relay.ts';
import { bodyExcerpt } from './body-excerpt.ts';
import {
  BODY_EXCERPT_BYTES,
  LIST_ENVELOPE_BYTES,
  type Message,
  type MessageFilter,
  type MessageListItem,
  type MessageListQuery,
} from './schemas.ts';
import {
  deleteMessages,
  findMessage,
  listMessageItemRows,
  relaysOf,
  type MessageItemRow,
  type MessageRow,
  type RelayRow,
} from './store.ts';

/** The decrypted plaintext when it is a JSON object (an event envelope, normally), else null. */
function parseEnvelope(plaintext: string | null): Message['envelope'] {
  if (plaintext === null) return null;
  try {
    const value = JSON.parse(plaintext) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

type BodyFields = 'body' | 'body_base64' | 'body_size' | 'body_excerpted' | 'envelope' | 'envelope_size' | 'envelope_omitted';

/** Everything of a message but its body and envelope: the same in a list and alone. */
function messageFields(row: Omit<MessageRow, 'body' | 'plaintext'>, relays: RelayRow[]): Omit<Message, BodyFields> {
  return {
    uuid: row.uuid,
    inbox_uuid: row.inbox_uuid,
    received_on: row.received_on,
    method: row.method,
    path: row.path,
    headers: headerObject(parsePairs(row.raw_headers)),
    body_truncated: row.body_truncated === 1,
    decrypted: row.decrypted === 1,
    decryption_problem: row.decryption_problem,
    decryption_error:
      row.analyzed === 1 ? row.decryption_error : 'Not judged yet (the server stopped before it could); the raw request is kept.',
    signature_status: row.signature_status,
    verified_with: row.verified_with,
    hints: JSON.parse(row.hints) as Hint[],
    delivery_id: row.delivery_id,
    attempt: row.attempt ?? null,
    event_id: row.event_id,
    event_type: row.event_type,
    duplicate_of: row.duplicate_of,
    duplicate_by:
      row.duplicate_by === 'delivery_id' || row.duplicate_by === 'signature' || row.duplicate_by === 'event_id' ? row.duplicate_by : null,
    answer: {
      kind: (row.answer as Message['answer']['kind']) ?? null,
      status: row.answered_status,
      after_ms: row.answered_after_ms,
      rule: row.answered_by_rule ?? null,
    },
    relays: relays.map(toRelay),
  };
}

export function toMessage(row: MessageRow, relays: RelayRow[]): Message {
  const body = Buffer.from(row.body);
  return {
    ...messageFields(row, relays),
    body: body.toString('utf8'),
    body_base64: isUtf8(body) ? null : body.toString('base64'),
    body_size: body.length,
    body_excerpted: false,
    envelope: parseEnvelope(row.plaintext),
    envelope_size: row.plaintext === null ? null : Buffer.byteLength(row.plaintext),
    envelope_omitted: false,
  };
}

export function toMessageListItem(row: MessageItemRow, relays: RelayRow[]): MessageListItem {
  return {
    ...messageFields(row, relays),
    ...bodyExcerpt(row.body_head, row.body_size, 2 * BODY_EXCERPT_BYTES),
    body_size: row.body_size,
    envelope: parseEnvelope(row.plaintext),
    envelope_size: row.plaintext_size,
    envelope_omitted: row.plaintext === null && row.plaintext_size !== null,
  };
}

/** One message, for writeMessageJson: its body bytes apart from the rest. */
export async function getMessageParts(
  ctx: ReceiverStore,
  organizationUuid: string,
  inboxUuid: string,
  uuid: string,
): Promise<{ fields: Omit<Message, 'body' | 'body_base64'>; body: Buffer; utf8: boolean }> {
  const row = await findMessageRow(ctx, organizationUuid, inboxUuid, uuid);
  const relays = await relaysOf(ctx.db.kysely, [row.uuid]);
  const body = Buffer.from(row.body);
  return {
    fields: {
      ...messageFields(row, relays.get(row.uuid) ?? []),
      body_size: body.length,
      body_excerpted: false,
      envelope: parseEnvelope(row.plaintext),
      envelope_size: row.plaintext === null ? null : Buffer.byteLength(row.plaintext),
      envelope_omitted: false,
    },
    body,
    utf8: isUtf8(body),
  };
}

export async function findMessageRow(ctx: ReceiverStore, organizationUuid: string, inboxUuid: string, uuid: string): Promise<MessageRow> {
  await requireInbox(ctx, organizationUuid, inboxUuid);
  const row = await findMessage(ctx.db.kysely, inboxUuid, uuid);
  if (!row) throw notFound(`Message ${uuid}`);
  return row;
}

/** One page of an inbox's messages, newest first, with their relays, bounded in bytes (see messageListItemSchema). */
async function messageItems(ctx: ReceiverStore, inboxUuid: string, filter: MessageFilter, slice: Slice) {
  const { rows, total } = await listMessageItemRows(ctx.db.kysely, inboxUuid, filter, slice, {
    headBytes: BODY_EXCERPT_BYTES,
    maxPlaintextBytes: LIST_ENVELOPE_BYTES,
  });
  const relays = await relaysOf(
    ctx.db.kysely,
    rows.map((r) => r.uuid),
  );
  return { items: rows.map((row) => toMessageListItem(row, relays.get(row.uuid) ?? [])), total };
}

export async function listMessages(ctx: ReceiverStore, inboxUuid: string, query: MessageListQuery): Promise<Page<MessageListItem>> {
  await requireInbox(ctx, query.organization_uuid, inboxUuid);
  return toPage(await messageItems(ctx, inboxUuid, query, pageSlice(query)), query);
}

export async function clearMessages(ctx: ReceiverStore, organizationUuid: string, inboxUuid: string): Promise<void> {
  await requireInbox(ctx, organizationUuid, inboxUuid);
  await deleteMessages(ctx.db.kysely, inboxUuid);
}
