import { sql, type Kysely } from 'kysely';

/**
 * A counter that every change to an organization's service catalog moves (triggers on services and
 * service_categories, so writes by any connection count: the server, a worker, the CLI). A reader
 * that remembers the catalog keeps it while the counter reads the same (the service confirmations: server/confirmations/store.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table change_counters (name text primary key, value integer not null) without rowid`.execute(db);
  await sql`insert into change_counters (name, value) values ('service_catalog', 0)`.execute(db);
  for (const table of ['services', 'service_categories']) {
    for (const change of ['insert', 'update', 'delete']) {
      await sql
        .raw(
          `create trigger ${table}_${change}_moves_catalog_version after ${change} on ${table} begin ` +
            `update change_counters set value = value + 1 where name = 'service_catalog'; end`,
        )
        .execute(db);
    }
  }
}
