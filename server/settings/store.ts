import type { Kysely } from 'kysely';
import type { Database, OrganizationSettingsTable } from '../db/schema.ts';

/** The organization's default time zone (the date order's default comes from it). */
export async function organizationZone(db: Kysely<Database>, organizationUuid: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('default_timezone').where('uuid', '=', organizationUuid).executeTakeFirst();
  return row?.default_timezone;
}

export function findSettings(db: Kysely<Database>, organizationUuid: string): Promise<OrganizationSettingsTable | undefined> {
  return db.selectFrom('organization_settings').selectAll().where('organization_uuid', '=', organizationUuid).executeTakeFirst();
}

export async function saveSettings(db: Kysely<Database>, row: OrganizationSettingsTable): Promise<void> {
  await db
    .insertInto('organization_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('organization_uuid').doUpdateSet({
        webhook_retry_schedule: row.webhook_retry_schedule,
        allow_http_webhooks: row.allow_http_webhooks,
        updated_on: row.updated_on,
        date_order: row.date_order ?? null,
        webhook_auto_disable_after_s: row.webhook_auto_disable_after_s ?? null,
        webhook_timeout_s: row.webhook_timeout_s ?? null,
      }),
    )
    .execute();
}
