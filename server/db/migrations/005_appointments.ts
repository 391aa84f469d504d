import { sql, type Kysely } from 'kysely';

/** Service catalog, import handlers and appointment schedules (issue 4). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('services')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('code_key', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .addColumn('deleted_on', 'text')
    .execute();
  await sql`create unique index services_by_name on services (organization_uuid, name_key) where deleted_on is null`.execute(db);
  await sql`create unique index services_by_code on services (organization_uuid, code_key) where deleted_on is null and code_key is not null`.execute(
    db,
  );

  await db.schema
    .createTable('service_categories')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('service_uuid', 'text', (c) => c.notNull().references('services.uuid'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await sql`create index service_categories_by_service on service_categories (service_uuid, position)`.execute(db);

  await db.schema
    .createTable('import_handlers')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index import_handlers_by_slug on import_handlers (organization_uuid, slug)`.execute(db);

  await db.schema
    .createTable('appointment_schedules')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('qr_code_uuid', 'text', (c) => c.notNull().references('qrcodes.uuid'))
    .addColumn('qr_code_tag_uuid', 'text', (c) => c.notNull().references('qr_code_tags.uuid'))
    .addColumn('service_uuid', 'text', (c) => c.notNull().references('services.uuid'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('appointment_date', 'text', (c) => c.notNull())
    .addColumn('start_date_time', 'text', (c) => c.notNull())
    .addColumn('end_date_time', 'text', (c) => c.notNull())
    .addColumn('start_utc', 'text', (c) => c.notNull())
    .addColumn('end_utc', 'text', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('timezone_name', 'text', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('no_date_time_provided', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_reference_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('SERVICE'))
    .addColumn('notes', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index appointments_by_job_reference on appointment_schedules (organization_uuid, job_reference_id) where job_reference_id is not null`.execute(
    db,
  );
  await sql`create unique index appointments_by_tag_start_service on appointment_schedules (organization_uuid, qr_code_tag_uuid, start_utc, service_uuid) where job_reference_id is null`.execute(
    db,
  );
  await sql`create index appointments_by_start on appointment_schedules (organization_uuid, start_utc)`.execute(db);
  await sql`create index appointments_by_qrcode on appointment_schedules (qr_code_uuid, start_utc)`.execute(db);

  // Sync-mode imports record which appointment each row upserted, to answer with them (docs/imports.md); removed after answering.
  await db.schema
    .createTable('appointment_import_upserts')
    .addColumn('collect_key', 'text', (c) => c.notNull())
    .addColumn('row_index', 'integer', (c) => c.notNull())
    .addColumn('schedule_uuid', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('appointment_import_upserts_pk', ['collect_key', 'row_index'])
    .execute();
}
