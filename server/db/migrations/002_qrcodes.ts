import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('qrcodes')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('SITE'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('address_line_1', 'text')
    .addColumn('suburb', 'text')
    .addColumn('state', 'text')
    .addColumn('postcode', 'text')
    .addColumn('country', 'text')
    .addColumn('latitude', 'real')
    .addColumn('longitude', 'real')
    .addColumn('precision', 'text')
    .addColumn('timezone_name', 'text')
    .addColumn('data', 'text')
    .addColumn('qr_code_name', 'text')
    .addColumn('external_reference_id', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .addColumn('deleted_on', 'text')
    .execute();
  await sql`create unique index qrcodes_by_external_reference on qrcodes (organization_uuid, external_reference_id) where external_reference_id is not null`.execute(
    db,
  );
  // Identity of a QR code without an external reference: (name, location). One with a reference is found by it alone.
  await sql`create index qrcodes_by_name_location on qrcodes (organization_uuid, name, location) where external_reference_id is null`.execute(
    db,
  );

  await db.schema
    .createTable('qr_code_tags')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('qr_code_uuid', 'text', (c) => c.notNull().references('qrcodes.uuid'))
    .addColumn('tag_name', 'text', (c) => c.notNull())
    .addColumn('tag_number', 'text', (c) => c.notNull())
    .addColumn('tag_display_name', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index qr_code_tags_by_name_number on qr_code_tags (organization_uuid, tag_name, tag_number)`.execute(db);
  await sql`create index qr_code_tags_by_qrcode on qr_code_tags (qr_code_uuid)`.execute(db);
}
