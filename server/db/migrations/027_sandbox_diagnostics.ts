import { sql, type Kysely } from 'kysely';

/**
 * - webhooks.sandbox_diagnostics: 1 when its deliveries also carry the sandbox's X-Sandbox-Event,
 *   X-Sandbox-Delivery-Id and X-Sandbox-Attempt headers; 0 (the default): only what the service sends.
 * - inbox_messages.attempt: the attempt number of the sandbox's own delivery this message was, from
 *   the sandbox's records (or an X-Sandbox-Attempt header); null when unknown.
 * - organization_settings.webhook_timeout_s: seconds an attempt may take; null: the server's default (15 s).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column sandbox_diagnostics integer not null default 0`.execute(db);
  await sql`alter table inbox_messages add column attempt integer`.execute(db);
  await sql`alter table organization_settings add column webhook_timeout_s integer`.execute(db);
}
