import type { Kysely } from 'kysely';
import type { ApiKeyTable, Database } from '../db/schema.ts';

export function findActiveKey(db: Kysely<Database>, apiKey: string): Promise<ApiKeyTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('api_key', '=', apiKey).where('revoked_on', 'is', null).executeTakeFirst();
}

export async function insertKey(db: Kysely<Database>, row: ApiKeyTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export function listKeys(db: Kysely<Database>, organizationUuid: string) {
  return db
    .selectFrom('api_keys')
    .select(['api_key', 'name', 'role', 'organization_uuid', 'created_on'])
    .where('organization_uuid', '=', organizationUuid)
    .where('revoked_on', 'is', null)
    .orderBy('created_on')
    .execute();
}

export async function revokeKey(db: Kysely<Database>, organizationUuid: string, apiKey: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_on: now })
    .where('api_key', '=', apiKey)
    .where('organization_uuid', '=', organizationUuid)
    .where('revoked_on', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The active key with its organization's name, or undefined once revoked. */
export function findKeyWithOrganization(db: Kysely<Database>, apiKey: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('organizations', 'organizations.uuid', 'api_keys.organization_uuid')
    .select(['api_keys.api_key', 'api_keys.name', 'api_keys.role', 'api_keys.organization_uuid', 'organizations.name as organization_name'])
    .where('api_keys.api_key', '=', apiKey)
    .where('api_keys.revoked_on', 'is', null)
    .executeTakeFirst();
}

/** A key's name and role by its uuid (revoked keys too: a task keeps naming who started it). */
export function findKeyNameByUuid(db: Kysely<Database>, uuid: string) {
  return db.selectFrom('api_keys').select(['name', 'role']).where('uuid', '=', uuid).executeTakeFirst();
}
