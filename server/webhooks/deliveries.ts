import type { OutboxDeps } from './outbox.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { nowIso } from '../time.ts';
import { findDelivery, listDeliveries, requeueDelivery } from './outbox-store.ts';
import type { Delivery, DeliveryListQuery } from './schemas.ts';
import { withSentDetails } from './sent-details.ts';
import { requireWebhook } from './webhooks.ts';

export async function pageOfDeliveries(db: Kysely<Database>, webhookUuid: string, query: DeliveryListQuery): Promise<Page<Delivery>> {
  const webhook = await requireWebhook(db, query.organization_uuid, webhookUuid);
  const { items, total } = await listDeliveries(db, webhookUuid, query);
  return toPage({ items: await withSentDetails(db, webhook, items), total }, query);
}

/**
 * Sends a delivery again, whatever its status: same delivery id, the next attempt number, a
 * fresh retry schedule. Refused while an attempt is in flight or the webhook is inactive.
 */
export async function redeliver(deps: OutboxDeps, organizationUuid: string, webhookUuid: string, deliveryId: string): Promise<Delivery> {
  const db = deps.db.kysely;
  const webhook = await requireWebhook(db, organizationUuid, webhookUuid);
  if (!(await findDelivery(db, webhookUuid, deliveryId))) throw notFound(`Delivery ${deliveryId} of webhook ${webhookUuid}`);
  if (webhook.is_active !== 1) {
    throw new ApiError('CONFLICT', 'The webhook is inactive; activate it first (PATCH /api/webhooks/uuid/{uuid} {"is_active": true}).');
  }
  if (!(await requeueDelivery(db, deliveryId, Date.now(), nowIso()))) {
    throw new ApiError('CONFLICT', 'An attempt of this delivery is being sent right now; try again when it has finished.');
  }
  deps.outbox.wake();
  deps.live.publish({
    type: 'delivery.queued',
    organization_uuid: organizationUuid,
    data: { webhook_uuid: webhookUuid, delivery_id: deliveryId },
  });
  const delivery = await findDelivery(db, webhookUuid, deliveryId);
  if (!delivery) throw notFound(`Delivery ${deliveryId} of webhook ${webhookUuid}`);
  const [detailed] = await withSentDetails(db, webhook, [delivery]);
  return detailed ?? delivery;
}
