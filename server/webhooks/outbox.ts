import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { EventType } from './events.ts';
import { insertDeliveries, insertEvent } from './outbox-store.ts';
import { subscribedWebhooks } from './store.ts';

/** The plaintext envelope of spec 6.3. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: EventType;
  created_at: string;
  data: T;
}

export interface QueuedEvent<T = unknown> {
  envelope: EventEnvelope<T>;
  deliveries: { delivery_id: string; webhook_uuid: string; url: string }[];
}

/**
 * Writes an event and one pending delivery per active subscribed webhook. Call it inside the
 * transaction that writes the record the event is about, so both exist or neither does.
 */
export async function queueEvent<T>(trx: Kysely<Database>, organizationUuid: string, type: EventType, data: T): Promise<QueuedEvent<T>> {
  const now = new Date();
  const envelope: EventEnvelope<T> = { id: `evt_${randomUUID()}`, type, created_at: now.toISOString(), data };
  await insertEvent(trx, {
    id: envelope.id,
    organization_uuid: organizationUuid,
    type,
    created_at: envelope.created_at,
    envelope: JSON.stringify(envelope),
  });
  const webhooks = await subscribedWebhooks(trx, organizationUuid, type);
  const deliveries = webhooks.map((webhook) => ({ delivery_id: randomUUID(), webhook_uuid: webhook.uuid, url: webhook.url }));
  await insertDeliveries(
    trx,
    deliveries.map((d) => ({
      delivery_id: d.delivery_id,
      event_id: envelope.id,
      webhook_uuid: d.webhook_uuid,
      organization_uuid: organizationUuid,
      status: 'pending' as const,
      status_reason: null,
      attempt_count: 0,
      schedule_base: 0,
      next_attempt_at: now.getTime(),
      in_flight: 0,
      claimed_on: null,
      created_on: envelope.created_at,
      updated_on: envelope.created_at,
    })),
  );
  return { envelope, deliveries };
}

/** After the transaction commits: tell live clients, and wake the dispatcher. */
export function announceEvent(ctx: AppContext, organizationUuid: string, queued: QueuedEvent): void {
  ctx.live.publish({
    type: 'webhook.event',
    organization_uuid: organizationUuid,
    data: { event_id: queued.envelope.id, event_type: queued.envelope.type, deliveries: queued.deliveries.length },
  });
}
