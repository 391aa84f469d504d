import { sql, type Kysely } from 'kysely';

/**
 * Named counters that writers move in the transaction of their change, so that readers who remember
 * what they read can tell in one lookup whether it changed (by any connection: the server, the
 * CLI, another process). 'service_catalog' moves with every write to services and their categories
 * (server/services/store.ts); service confirmations remember the catalog while it stands still.
 * A counter rather than triggers: a trigger on services makes every insert into it plan a scan of
 * the tables that reference services (for SQLite's foreign key bookkeeping).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table change_counters (name text primary key, value integer not null)`.execute(db);
  await sql`insert into change_counters (name, value) values ('service_catalog', 0)`.execute(db);
}
