import { sql, type Kysely } from 'kysely';

/** How many of an inbox's oldest messages were dropped to keep it under the message cap. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inboxes add column dropped_messages integer not null default 0`.execute(db);
}
