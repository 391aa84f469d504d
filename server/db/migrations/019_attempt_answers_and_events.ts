import type { Kysely } from 'kysely';

/**
 * What each delivery attempt got back (the answer's headers and its body up to a bound). The list
 * of events across all webhooks and its counters read through the indexes of migration 016 (an
 * organization's events newest first, the deliveries of an event, an organization's deliveries by status).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_headers', 'text').execute();
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_body', 'text').execute();
  await db.schema
    .alterTable('webhook_delivery_attempts')
    .addColumn('response_body_truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_body_truncated').execute();
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_body').execute();
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_headers').execute();
}
