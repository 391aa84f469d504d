import { sql, type Kysely } from 'kysely';

/**
 * Indexes for reading or removing all of an organization's rows: its deliveries across its
 * webhooks (GET /api/webhooks/deliveries, the bulk redeliver: all, or of one status, newest
 * first), and the snapshots, restores and resets that copy or delete every row it has. Deleting
 * a webhook event or a service makes SQLite look for rows still pointing at it (foreign keys):
 * without an index on the pointing column, a scan of every delivery or appointment for each one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_by_organization on webhook_deliveries (organization_uuid, seq)`.execute(db);
  await sql`create index webhook_deliveries_by_organization_status on webhook_deliveries (organization_uuid, status, seq)`.execute(db);
  await sql`create index webhook_deliveries_by_event on webhook_deliveries (event_id)`.execute(db);
  await sql`create index webhook_events_by_organization on webhook_events (organization_uuid, seq)`.execute(db);
  await sql`create index services_by_organization on services (organization_uuid)`.execute(db);
  await sql`create index appointments_by_service on appointment_schedules (service_uuid)`.execute(db);
  await sql`create index appointment_import_upserts_by_schedule on appointment_import_upserts (schedule_uuid)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'appointment_import_upserts_by_schedule',
    'appointments_by_service',
    'services_by_organization',
    'webhook_events_by_organization',
    'webhook_deliveries_by_event',
    'webhook_deliveries_by_organization_status',
    'webhook_deliveries_by_organization',
  ]) {
    await sql.raw(`drop index ${index}`).execute(db);
  }
}
