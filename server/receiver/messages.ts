import { pageSlice } from '../db/counted-page.ts';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import type { Hint } from '../tools/schemas.ts';
import { headerObject, parsePairs } from './headers.ts';
import { requireInbox } from './inboxes.ts';
import { toRelay } from './relay.ts';
import type { Message, MessageFilter, MessageListQuery } from './schemas.ts';
import { deleteMessages, findMessage, listMessageRows, relaysOf, type MessageRow, type RelayRow } from './store.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Buffer): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

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

export function toMessage(row: MessageRow, relays: RelayRow[]): Message {
  const body = Buffer.from(row.body);
  const text = isUtf8(body);
  return {
    uuid: row.uuid,
    inbox_uuid: row.inbox_uuid,
    received_on: row.received_on,
    method: row.method,
    path: row.path,
    headers: headerObject(parsePairs(row.raw_headers)),
    body: body.toString('utf8'),
    body_base64: text ? null : body.toString('base64'),
    body_size: body.length,
    body_truncated: row.body_truncated === 1,
    decrypted: row.decrypted === 1,
    decryption_problem: row.decryption_problem,
    decryption_error:
      row.analyzed === 1 ? row.decryption_error : 'Not judged yet (the server stopped before it could); the raw request is kept.',
    signature_status: row.signature_status,
    verified_with: row.verified_with,
    hints: JSON.parse(row.hints) as Hint[],
    delivery_id: row.delivery_id,
    event_id: row.event_id,
    event_type: row.event_type,
    envelope: parseEnvelope(row.plaintext),
    duplicate_of: row.duplicate_of,
    duplicate_by:
      row.duplicate_by === 'delivery_id' || row.duplicate_by === 'signature' || row.duplicate_by === 'event_id' ? row.duplicate_by : null,
    answer: {
      kind: (row.answer as Message['answer']['kind']) ?? null,
      status: row.answered_status,
      after_ms: row.answered_after_ms,
    },
    relays: relays.map(toRelay),
  };
}

/** What the live stream says about a new message: enough for a list row; the GUI fetches the rest. */
export function messageSummary(message: Message) {
  return {
    uuid: message.uuid,
    inbox_uuid: message.inbox_uuid,
    received_on: message.received_on,
    method: message.method,
    decrypted: message.decrypted,
    signature_status: message.signature_status,
    event_type: message.event_type,
    event_id: message.event_id,
    duplicate_of: message.duplicate_of,
    answer: message.answer,
  };
}

export async function loadMessage(ctx: AppContext, inboxUuid: string, uuid: string): Promise<Message | null> {
  const row = await findMessage(ctx.db.kysely, inboxUuid, uuid);
  if (!row) return null;
  const relays = await relaysOf(ctx.db.kysely, [row.uuid]);
  return toMessage(row, relays.get(row.uuid) ?? []);
}

export async function getMessage(ctx: AppContext, organizationUuid: string, inboxUuid: string, uuid: string): Promise<Message> {
  await requireInbox(ctx, organizationUuid, inboxUuid);
  const message = await loadMessage(ctx, inboxUuid, uuid);
  if (!message) throw notFound(`Message ${uuid}`);
  return message;
}

export async function findMessageRow(ctx: AppContext, organizationUuid: string, inboxUuid: string, uuid: string): Promise<MessageRow> {
  await requireInbox(ctx, organizationUuid, inboxUuid);
  const row = await findMessage(ctx.db.kysely, inboxUuid, uuid);
  if (!row) throw notFound(`Message ${uuid}`);
  return row;
}

/** One slice of an inbox's messages, newest first, with their relays. */
export async function messageSlice(
  ctx: AppContext,
  inboxUuid: string,
  filter: MessageFilter,
  limit: number,
  offset: number,
): Promise<{ items: Message[]; total: number }> {
  const { rows, total } = await listMessageRows(ctx.db.kysely, inboxUuid, filter, { limit, offset });
  const relays = await relaysOf(
    ctx.db.kysely,
    rows.map((r) => r.uuid),
  );
  return { items: rows.map((row) => toMessage(row, relays.get(row.uuid) ?? [])), total };
}

export async function listMessages(ctx: AppContext, inboxUuid: string, query: MessageListQuery): Promise<Page<Message>> {
  await requireInbox(ctx, query.organization_uuid, inboxUuid);
  const { limit, offset } = pageSlice(query);
  const { items, total } = await messageSlice(ctx, inboxUuid, query, limit, offset);
  return toPage(items, total, query.page, query.per_page);
}

export async function clearMessages(ctx: AppContext, organizationUuid: string, inboxUuid: string): Promise<void> {
  await requireInbox(ctx, organizationUuid, inboxUuid);
  await deleteMessages(ctx.db.kysely, inboxUuid);
}
