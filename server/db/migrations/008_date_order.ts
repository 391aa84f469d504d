import type { Kysely } from 'kysely';

/** How an organization's imports read dates such as 02/12/2026 (null: from its default time zone's country). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organization_settings').addColumn('date_order', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organization_settings').dropColumn('date_order').execute();
}
