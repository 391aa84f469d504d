import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('default_timezone', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('api_key', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'editor', 'viewer')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('revoked_on', 'text')
    .execute();

  await db.schema
    .createTable('background_tasks')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by_uuid', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('results', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('background_tasks_by_org').on('background_tasks').columns(['organization_uuid', 'seq']).execute();
}
