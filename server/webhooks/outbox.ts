import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { param, perDatabase, prepare, type Prepared } from '../db/prepared.ts';
import type { LiveBus } from '../live/bus.ts';
import { eventDefinition, type EventType } from '../webhook-events/registry.ts';
import type { OutboxSignal } from './outbox-signal.ts';

/** The plaintext envelope of docs/webhooks.md. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: EventType;
  created_at: string;
  data: T;
}

export interface QueuedEvent<T = unknown> {
  envelope: EventEnvelope<T>;
  /** JSON.stringify(envelope): the bytes stored, signed and encrypted. */
  envelopeJson: string;
  deliveries: { delivery_id: string; webhook_uuid: string; url: string }[];
}

type EventParam = 'id' | 'organization_uuid' | 'type' | 'created_at' | 'envelope';
type DeliveryParam = 'delivery_id' | 'event_id' | 'webhook_uuid' | 'organization_uuid' | 'next_attempt_at' | 'created_on';

/** The outbox's statements, compiled once per database: every event runs each of them. */
class OutboxStatements {
  readonly event: Prepared<EventParam>;
  readonly webhooks: Prepared<'organization_uuid'>;
  readonly delivery: Prepared<DeliveryParam>;

  constructor(db: Db) {
    const k = db.kysely;
    this.event = prepare(
      db.sqlite,
      k.insertInto('webhook_events').values({
        id: param('id'),
        organization_uuid: param('organization_uuid'),
        type: param('type'),
        created_at: param('created_at'),
        envelope: param('envelope'),
      }),
    );
    this.webhooks = prepare(
      db.sqlite,
      k
        .selectFrom('webhooks')
        .select(['uuid', 'url', 'events'])
        .where('organization_uuid', '=', param('organization_uuid'))
        .where('is_active', '=', sql.lit(1))
        .where('deleted_on', 'is', null)
        .orderBy('seq'),
    );
    this.delivery = prepare(
      db.sqlite,
      k.insertInto('webhook_deliveries').values({
        delivery_id: param('delivery_id'),
        event_id: param('event_id'),
        webhook_uuid: param('webhook_uuid'),
        organization_uuid: param('organization_uuid'),
        status: sql.lit('pending'),
        status_reason: sql.lit(null),
        attempt_count: sql.lit(0),
        schedule_base: sql.lit(0),
        next_attempt_at: param<number>('next_attempt_at'),
        in_flight: sql.lit(0),
        claimed_on: sql.lit(null),
        created_on: param('created_on'),
        updated_on: param('created_on'),
      }),
    );
  }
}

const statementsOf = perDatabase((db) => new OutboxStatements(db));

/**
 * JSON.stringify(envelope), with the data's JSON text given (a caller that stored the record has
 * it already): the same bytes, without serialising the data again.
 */
function envelopeText(envelope: EventEnvelope, dataJson: string | undefined): string {
  if (dataJson === undefined) return JSON.stringify(envelope);
  return `{"id":${JSON.stringify(envelope.id)},"type":${JSON.stringify(envelope.type)},"created_at":${JSON.stringify(envelope.created_at)},"data":${dataJson}}`;
}

/**
 * Writes an event and one pending delivery per active subscribed webhook. Call it inside the
 * transaction that writes the record the event is about (a synchronous one, or a kysely one from
 * its callback: both run on this connection), so both exist or neither does. `dataJson`, when
 * given, must be JSON.stringify(data). A sandbox-only event no webhook subscribes to is not
 * written at all (undefined): without a webhook that opts in, the sandbox behaves as the service.
 */
export function queueEvent<T>(db: Db, organizationUuid: string, type: EventType, data: T, dataJson?: string): QueuedEvent<T> | undefined {
  const s = statementsOf(db);
  const webhooks = s.webhooks
    .all<{ uuid: string; url: string; events: string }>({ organization_uuid: organizationUuid })
    .filter((row) => (JSON.parse(row.events) as string[]).includes(type));
  if (webhooks.length === 0 && eventDefinition(type).sandboxOnly) return undefined;
  const now = new Date();
  const envelope: EventEnvelope<T> = { id: `evt_${randomUUID()}`, type, created_at: now.toISOString(), data };
  const envelopeJson = envelopeText(envelope, dataJson);
  s.event.run({
    id: envelope.id,
    organization_uuid: organizationUuid,
    type,
    created_at: envelope.created_at,
    envelope: envelopeJson,
  });
  const deliveries = webhooks.map((webhook) => ({ delivery_id: randomUUID(), webhook_uuid: webhook.uuid, url: webhook.url }));
  for (const d of deliveries) {
    s.delivery.run({
      delivery_id: d.delivery_id,
      event_id: envelope.id,
      webhook_uuid: d.webhook_uuid,
      organization_uuid: organizationUuid,
      next_attempt_at: now.getTime(),
      created_on: envelope.created_at,
    });
  }
  return { envelope, envelopeJson, deliveries };
}

/** What telling about a committed event takes: the dispatcher's wake-up and the live bus. */
export interface EventAnnouncer {
  outbox: OutboxSignal;
  live: LiveBus;
}

/** What queueing deliveries takes (sending an event, a redelivery): the database, the wake-up and the live bus, not the whole server context. */
export interface OutboxDeps extends EventAnnouncer {
  db: Db;
}

/** After the transaction commits: tell live clients, and wake the dispatcher. */
export function announceEvent(deps: EventAnnouncer, organizationUuid: string, queued: QueuedEvent): void {
  deps.outbox.wake();
  deps.live.publish({
    type: 'webhook.event',
    organization_uuid: organizationUuid,
    data: { event_id: queued.envelope.id, event_type: queued.envelope.type, deliveries: queued.deliveries.length },
  });
}
