import type { OutboxDeps } from './outbox.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { nowIso } from '../time.ts';
import {
  BULK_REDELIVER_CAP,
  type BulkRedeliverBody,
  type BulkRedeliverResult,
  type OrganizationDeliveryQuery,
} from './bulk-delivery-schemas.ts';
import { failedDeliveriesToResend, listOrganizationDeliveries, webhooksByUuid } from './organization-deliveries-store.ts';
import { requeueDelivery } from './outbox-store.ts';
import type { Delivery } from './schemas.ts';
import { withSentDetails } from './sent-details.ts';

/** A page of the deliveries of all the organization's webhooks, newest first, with what each attempt sent. */
export async function pageOfOrganizationDeliveries(db: Kysely<Database>, query: OrganizationDeliveryQuery): Promise<Page<Delivery>> {
  const { items, total } = await listOrganizationDeliveries(db, query);
  const webhooks = await webhooksByUuid(db, query.organization_uuid, [...new Set(items.map((d) => d.webhook_uuid))]);
  const detailed = new Map<string, Delivery>();
  for (const webhook of webhooks) {
    const own = items.filter((d) => d.webhook_uuid === webhook.uuid);
    for (const delivery of await withSentDetails(db, webhook, own)) detailed.set(delivery.delivery_id, delivery);
  }
  return toPage({ items: items.map((d) => detailed.get(d.delivery_id) ?? d), total }, query);
}

/**
 * Queues the organization's failed deliveries again, oldest first and at most BULK_REDELIVER_CAP
 * a call, each as the single redeliver does (same delivery id, next attempt number, fresh retry
 * schedule), in one transaction. Deliveries of inactive or deleted webhooks are skipped and counted.
 */
export async function redeliverFailed(deps: OutboxDeps, body: BulkRedeliverBody): Promise<BulkRedeliverResult> {
  const organizationUuid = body.organization_uuid;
  const filters = { organization_uuid: organizationUuid, since: body.since, webhook_uuid: body.webhook_uuid };
  const { queued, total, unsendable } = await deps.db.kysely.transaction().execute(async (trx) => {
    const found = await failedDeliveriesToResend(trx, filters, BULK_REDELIVER_CAP);
    const nowMs = Date.now();
    const now = nowIso();
    const done: { delivery_id: string; webhook_uuid: string }[] = [];
    for (const row of found.rows) if (await requeueDelivery(trx, row.delivery_id, nowMs, now)) done.push(row);
    return { queued: done, total: found.total, unsendable: found.unsendable + found.rows.length - done.length };
  });
  if (queued.length > 0) deps.outbox.wake();
  const lastOfWebhook = new Map(queued.map((row) => [row.webhook_uuid, row.delivery_id]));
  for (const [webhookUuid, deliveryId] of lastOfWebhook) {
    deps.live.publish({
      type: 'delivery.queued',
      organization_uuid: organizationUuid,
      data: { webhook_uuid: webhookUuid, delivery_id: deliveryId },
    });
  }
  return {
    redelivered: queued.length,
    delivery_ids: queued.map((row) => row.delivery_id),
    skipped: unsendable,
    remaining: Math.max(0, total - Math.min(total, BULK_REDELIVER_CAP)),
    cap: BULK_REDELIVER_CAP,
  };
}
