import type { Kysely } from 'kysely';
import { outsideTransaction } from '../db/outside-transaction.ts';
import type { Db } from '../db/database.ts';
import { param, perDatabase, prepare } from '../db/prepared.ts';
import type { ApiKeyTable, Database } from '../db/schema.ts';

const activeKey = (db: Kysely<Database>, apiKey: string) =>
  db.selectFrom('api_keys').selectAll().where('api_key', '=', apiKey).where('revoked_on', 'is', null);
const activeKeyLookupOf = perDatabase((db) => prepare<'apiKey'>(db.sqlite, activeKey(db.kysely, param('apiKey'))));

/**
 * The active key with this id, read on every request (a prepared statement: a few µs), so a
 * revoke, by this server or any other connection to the file, counts from the very next request.
 */
export async function findActiveKey(db: Db, apiKey: string): Promise<ApiKeyTable | undefined> {
  await outsideTransaction(db);
  return activeKeyLookupOf(db).get<ApiKeyTable>({ apiKey });
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
