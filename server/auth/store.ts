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
