import type { Kysely } from 'kysely';

/** How many times an import's run started without ending cleanly: a task that keeps taking its worker (or the server) down is not resumed again. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('import_jobs')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
