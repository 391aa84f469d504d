import { sql, type Kysely } from 'kysely';

/** The import engine's durable state: one job per import task (checkpoint) and every excluded row. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('task_uuid', 'text', (c) => c.primaryKey().references('background_tasks.uuid'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('organization_uuid', 'text', (c) => c.notNull())
    .addColumn('upload_file', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('csv', 'xlsx', 'json')`))
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('headers', 'text')
    .addColumn('rows_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('excluded_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('import_excluded_rows')
    .addColumn('task_uuid', 'text', (c) => c.notNull().references('background_tasks.uuid'))
    .addColumn('row_index', 'integer', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('echo', 'text', (c) => c.notNull())
    .addColumn('cells', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_excluded_rows_pk', ['task_uuid', 'row_index'])
    .execute();
}
