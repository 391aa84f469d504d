import { sql, type Kysely } from 'kysely';

/**
 * What each delivery attempt got back (the answer's headers and its body up to a bound), and the
 * indexes of the list of events across all webhooks: an organization's events newest first, the
 * deliveries of an event, and the organization's deliveries by status (the running counters).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_headers', 'text').execute();
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_body', 'text').execute();
  await db.schema
    .alterTable('webhook_delivery_attempts')
    .addColumn('response_body_truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index webhook_events_by_org on webhook_events (organization_uuid, seq)`.execute(db);
  await sql`create index webhook_deliveries_by_event on webhook_deliveries (event_id)`.execute(db);
  await sql`create index webhook_deliveries_by_org_status on webhook_deliveries (organization_uuid, status)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_by_org_status`.execute(db);
  await sql`drop index webhook_deliveries_by_event`.execute(db);
  await sql`drop index webhook_events_by_org`.execute(db);
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_body_truncated').execute();
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_body').execute();
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_headers').execute();
}
