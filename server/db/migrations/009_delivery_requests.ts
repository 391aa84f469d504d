import type { Kysely } from 'kysely';

/** What each webhook delivery attempt sent: its headers (JSON object) and its encrypted body, as sent. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('request_headers', 'text').execute();
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('request_body', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('request_body').execute();
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('request_headers').execute();
}
