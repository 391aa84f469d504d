import { sql, type Kysely } from 'kysely';

/**
 * - webhooks.sandbox_diagnostics: 1 when its deliveries also carry the sandbox's X-Sandbox-Event,
 *   X-Sandbox-Delivery-Id and X-Sandbox-Attempt headers; 0 (the default): only what the service sends.
 * - inbox_messages.attempt: the attempt number of the sandbox's own delivery this message was, from
 *   the sandbox's records (or an X-Sandbox-Attempt header); null when unknown. Messages stored
 *   before it keep the number their X-Service-Attempt header said (deliveries carried it then).
 * - organization_settings.webhook_timeout_s: seconds an attempt may take; null: the server's default (15 s).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column sandbox_diagnostics integer not null default 0`.execute(db);
  await sql`alter table inbox_messages add column attempt integer`.execute(db);
  // One inbox at a time, by organization, each statement reading by an index.
  const organizations = await sql<{ uuid: string }>`select uuid from organizations`.execute(db);
  for (const organization of organizations.rows) {
    const inboxes = await sql<{ uuid: string }>`select uuid from inboxes where organization_uuid = ${organization.uuid}`.execute(db);
    for (const inbox of inboxes.rows) {
      await sql`update inbox_messages set attempt = (
          select cast(h.value ->> 1 as integer) from json_each(inbox_messages.raw_headers) as h
          where lower(h.value ->> 0) = 'x-service-attempt' and h.value ->> 1 glob '[1-9]*' and h.value ->> 1 not glob '*[^0-9]*'
          limit 1)
        where inbox_uuid = ${inbox.uuid} and delivery_id is not null`.execute(db);
    }
  }
  await sql`alter table organization_settings add column webhook_timeout_s integer`.execute(db);
}
