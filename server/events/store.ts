import type { Kysely } from 'kysely';
import { cachedCount } from '../db/count-cache.ts';
import { inListOrder, pageWindow } from '../db/page-window.ts';
import type { Database } from '../db/schema.ts';
import { type EventType, summaryOf } from '../webhook-events/registry.ts';
import type { EventListQuery, EventSummary } from './schemas.ts';

/** The organization's events newest first, each with its deliveries (one per webhook) and their status. */
export async function listEvents(db: Kysely<Database>, query: EventListQuery): Promise<{ items: EventSummary[]; total: number }> {
  let base = db.selectFrom('webhook_events').where('organization_uuid', '=', query.organization_uuid);
  if (query.type) base = base.where('type', '=', query.type);
  const { status, webhook_uuid } = query;
  if (status || webhook_uuid) {
    base = base.where(({ exists, selectFrom }) => {
      let deliveries = selectFrom('webhook_deliveries as d').select('d.delivery_id').whereRef('d.event_id', '=', 'webhook_events.id');
      if (status) deliveries = deliveries.where('d.status', '=', status);
      if (webhook_uuid) deliveries = deliveries.where('d.webhook_uuid', '=', webhook_uuid);
      return exists(deliveries);
    });
  }
  const total = await cachedCount(db, base);
  const window = pageWindow(total, query.page, query.per_page);
  if (!window) return { items: [], total };
  const rows = inListOrder(
    window,
    await base
      .select(['id', 'type', 'created_at', 'envelope'])
      .orderBy('seq', window.backward ? 'asc' : 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
  );
  const ids = rows.map((r) => r.id);
  const deliveries = ids.length
    ? await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.uuid', 'd.webhook_uuid')
        .select(['d.delivery_id', 'd.event_id', 'd.webhook_uuid', 'w.url as webhook_url', 'd.status', 'd.attempt_count'])
        .select((eb) =>
          eb
            .selectFrom('webhook_delivery_attempts as a')
            .select('a.status_code')
            .whereRef('a.delivery_id', '=', 'd.delivery_id')
            .orderBy('a.attempt', 'desc')
            .limit(1)
            .as('last_status_code'),
        )
        .where('d.event_id', 'in', ids)
        .orderBy('d.seq')
        .execute()
    : [];
  const byEvent = new Map<string, EventSummary['deliveries']>();
  for (const { event_id, ...delivery } of deliveries) {
    byEvent.set(event_id, [...(byEvent.get(event_id) ?? []), { ...delivery, last_status_code: delivery.last_status_code ?? null }]);
  }
  const items = rows.map((row) => ({
    id: row.id,
    type: row.type as EventType,
    created_at: row.created_at,
    ...summaryOf(row.envelope),
    deliveries: byEvent.get(row.id) ?? [],
  }));
  return { items, total };
}

/** Running counters of an organization: events, deliveries by status, imports. */
export async function countActivity(db: Kysely<Database>, organizationUuid: string) {
  const deliveries = (status: 'delivered' | 'failed' | 'pending') =>
    cachedCount(db, db.selectFrom('webhook_deliveries').where('organization_uuid', '=', organizationUuid).where('status', '=', status));
  const [events, delivered, failed, pending, imports] = await Promise.all([
    cachedCount(db, db.selectFrom('webhook_events').where('organization_uuid', '=', organizationUuid)),
    deliveries('delivered'),
    deliveries('failed'),
    deliveries('pending'),
    cachedCount(db, db.selectFrom('background_tasks').where('organization_uuid', '=', organizationUuid)),
  ]);
  return { events, deliveries: { delivered, failed, pending }, imports };
}

/** A delivery of the organization by its id: which webhook it belongs to (the inspector links a message to its attempt). */
export async function lookUpDelivery(db: Kysely<Database>, organizationUuid: string, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['delivery_id', 'webhook_uuid', 'event_id', 'status', 'attempt_count'])
    .where('delivery_id', '=', deliveryId)
    .where('organization_uuid', '=', organizationUuid)
    .executeTakeFirst();
}
