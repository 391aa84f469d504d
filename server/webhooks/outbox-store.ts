import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { cachedCount } from '../db/count-cache.ts';
import { inListOrder, pageWindow } from '../db/page-window.ts';
import type { Database, WebhookDeliveryAttemptTable, WebhookDeliveryTable } from '../db/schema.ts';
import type { EventType } from '../webhook-events/registry.ts';
import type { Delivery, DeliveryAttempt, DeliveryListQuery } from './schemas.ts';

export type DeliveryRow = Selectable<WebhookDeliveryTable> & { event_type: string };
type AttemptRow = Selectable<WebhookDeliveryAttemptTable>;

function toAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    attempt: row.attempt,
    attempted_on: row.attempted_on,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    response_excerpt: row.response_excerpt,
    response_headers: row.response_headers ? (JSON.parse(row.response_headers) as Record<string, string>) : null,
    response_body: row.response_body ?? null,
    response_body_truncated: row.response_body_truncated === 1,
    request_headers: row.request_headers ? (JSON.parse(row.request_headers) as Record<string, string>) : null,
    request_body: row.request_body ?? null,
    inbox_message_uuid: null,
  };
}

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): Delivery {
  return {
    delivery_id: row.delivery_id,
    event_id: row.event_id,
    event_type: row.event_type as EventType,
    webhook_uuid: row.webhook_uuid,
    status: row.status,
    status_reason: row.status_reason,
    attempt_count: row.attempt_count,
    next_attempt_on: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    created_on: row.created_on,
    attempts: attempts.map(toAttempt),
    payload: null,
    payload_verified: null,
    inbox_uuid: null,
  };
}

function deliveriesOf(db: Kysely<Database>, webhookUuid: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .where('d.webhook_uuid', '=', webhookUuid);
}

export async function withAttempts(db: Kysely<Database>, rows: DeliveryRow[]): Promise<Delivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((r) => r.delivery_id),
    )
    .orderBy('attempt')
    .execute();
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const attempt of attempts) byDelivery.set(attempt.delivery_id, [...(byDelivery.get(attempt.delivery_id) ?? []), attempt]);
  return rows.map((row) => toDelivery(row, byDelivery.get(row.delivery_id) ?? []));
}

/** A page of one webhook's deliveries (deliveriesPage); the count needs no join (event_id is an enforced foreign key). */
export async function listDeliveries(
  db: Kysely<Database>,
  webhookUuid: string,
  query: DeliveryListQuery,
): Promise<{ items: Delivery[]; total: number }> {
  let base = db.selectFrom('webhook_deliveries').where('webhook_uuid', '=', webhookUuid);
  if (query.status) base = base.where('status', '=', query.status);
  return deliveriesPage(db, base, query);
}

/**
 * One page, newest first, of the deliveries `base` selects, each with its attempts in order: the
 * page is cut from the deliveries alone and only its rows are joined with their events.
 */
export async function deliveriesPage(
  db: Kysely<Database>,
  base: SelectQueryBuilder<Database, 'webhook_deliveries', object>,
  paging: { page: number; per_page: number },
): Promise<{ items: Delivery[]; total: number }> {
  const total = await cachedCount(db, base);
  const window = pageWindow(total, paging.page, paging.per_page);
  if (!window) return { items: [], total };
  const direction = window.backward ? 'asc' : 'desc';
  const page = base.selectAll().orderBy('seq', direction).limit(window.limit).offset(window.offset);
  const rows = await db
    .selectFrom(page.as('d'))
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.type as event_type')
    .orderBy('d.seq', direction)
    .execute();
  return { items: await withAttempts(db, inListOrder(window, rows)), total };
}

export async function findDelivery(db: Kysely<Database>, webhookUuid: string, deliveryId: string): Promise<Delivery | undefined> {
  const row = await deliveriesOf(db, webhookUuid)
    .selectAll('d')
    .select('e.type as event_type')
    .where('d.delivery_id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) return undefined;
  const [delivery] = await withAttempts(db, [row]);
  return delivery;
}

/** Pending deliveries of a webhook that are not being sent right now stop, with the reason. */
export async function cancelPendingDeliveries(db: Kysely<Database>, webhookUuid: string, reason: string, now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', status_reason: reason, next_attempt_at: null, updated_on: now })
    .where('webhook_uuid', '=', webhookUuid)
    .where('status', '=', 'pending')
    .where('in_flight', '=', 0)
    .execute();
}

/** Due at once again, with a fresh retry schedule; the delivery id and attempt numbering continue. */
export async function requeueDelivery(db: Kysely<Database>, deliveryId: string, nowMs: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'pending',
      status_reason: null,
      next_attempt_at: nowMs,
      schedule_base: eb.ref('attempt_count'),
      updated_on: now,
    }))
    .where('delivery_id', '=', deliveryId)
    .where('in_flight', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
