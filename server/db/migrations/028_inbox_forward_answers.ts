import { sql, type Kysely } from 'kysely';

/** inboxes.forward_answers = 1: the inbox forwards while the sender waits and answers with the app's answer. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inboxes add column forward_answers integer not null default 0`.execute(db);
}
