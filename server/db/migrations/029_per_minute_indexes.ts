import { sql, type Kysely } from 'kysely';

/**
 * The per-minute charts read a bounded time range: an organization's events since a time, and a
 * webhook's deliveries touched since a time (every attempt updates its delivery), whose attempts
 * are then found by the (delivery_id, attempt) index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_events_by_organization_time on webhook_events (organization_uuid, created_at)`.execute(db);
  await sql`create index webhook_deliveries_by_webhook_updated on webhook_deliveries (webhook_uuid, updated_on)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_by_webhook_updated`.execute(db);
  await sql`drop index webhook_events_by_organization_time`.execute(db);
}
