import { sql, type Kysely } from 'kysely';

/**
 * Indexes found missing by the query-plan test (test/storage/query-plans.test.ts): each serves a
 * statement that otherwise read every row of a table that grows with an organization.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The QR code list and its count, and a dry run's copy of an organization's QR codes (newest first = rowid order within it).
  await sql`create index qrcodes_by_organization on qrcodes (organization_uuid, deleted_on)`.execute(db);
  // Identity of a QR code without a reference, a live one first (deleted_on sorts nulls first): with
  // deleted_on in the index, SQLite picks it for the lookup instead of reading the organization in that order.
  await sql`drop index qrcodes_by_name_location`.execute(db);
  await sql`create index qrcodes_by_name_location on qrcodes (organization_uuid, name, location, deleted_on) where external_reference_id is null`.execute(
    db,
  );
  // The appointment list's order (start, then uuid) straight from the index: no sort of the organization's appointments for a page.
  await sql`drop index appointments_by_start`.execute(db);
  await sql`create index appointments_by_start on appointment_schedules (organization_uuid, start_utc, uuid)`.execute(db);
  // The foreign key check when a QR code's tags are replaced (appointment_schedules.qr_code_tag_uuid -> qr_code_tags.uuid).
  await sql`create index appointments_by_tag on appointment_schedules (qr_code_tag_uuid)`.execute(db);
  await sql`create index api_keys_by_organization on api_keys (organization_uuid, created_on)`.execute(db);
  // Imports to resume at start.
  await sql`create index background_tasks_by_status on background_tasks (status, seq)`.execute(db);
  // Deliveries whose attempt a crash interrupted.
  await sql`create index webhook_deliveries_in_flight on webhook_deliveries (delivery_id) where in_flight = 1`.execute(db);
}
