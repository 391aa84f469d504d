import { type Kysely, sql, type Transaction } from 'kysely';
import { likeEscaped, likePattern } from '../db/trigram-search.ts';
import type { Database, ServiceTable } from '../db/schema.ts';
import type { Service, ServiceListQuery } from './schemas.ts';
import { countedSlice, pageSlice } from '../db/counted-page.ts';
import { findLiveRow } from '../db/live-row.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** How names and codes are compared: trimmed, ignoring case. */
export const catalogKey = (text: string) => text.trim().toLowerCase();

/**
 * Every write to services or service_categories moves the catalog version, in the same transaction
 * (or statement batch), so that a reader who remembers the catalog (server/confirmations/store.ts)
 * reads it again. Writers outside this file call it too (the demo reset).
 */
export async function moveCatalogVersion(db: Conn): Promise<void> {
  await db
    .updateTable('change_counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'service_catalog')
    .execute();
}

export async function insertService(db: Conn, row: ServiceTable): Promise<void> {
  await db.insertInto('services').values(row).execute();
  await moveCatalogVersion(db);
}

export async function replaceCategories(db: Conn, serviceUuid: string, categories: { uuid: string; name: string }[]): Promise<void> {
  await moveCatalogVersion(db);
  await db.deleteFrom('service_categories').where('service_uuid', '=', serviceUuid).execute();
  if (categories.length === 0) return;
  await db
    .insertInto('service_categories')
    .values(categories.map((c, position) => ({ uuid: c.uuid, service_uuid: serviceUuid, name: c.name, position })))
    .execute();
}

export function findServiceRow(db: Conn, organizationUuid: string, uuid: string): Promise<ServiceTable | undefined> {
  return findLiveRow(db, 'services', organizationUuid, uuid);
}

/** A live service of the organization with this name or code key, other than `exceptUuid`. */
export function findClash(db: Conn, organizationUuid: string, keys: { name_key?: string; code_key?: string | null }, exceptUuid?: string) {
  return db
    .selectFrom('services')
    .select(['uuid', 'name', 'code', 'name_key', 'code_key'])
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null)
    .where((eb) =>
      eb.or([
        ...(keys.name_key ? [eb('name_key', '=', keys.name_key)] : []),
        ...(keys.code_key ? [eb('code_key', '=', keys.code_key)] : []),
      ]),
    )
    .$if(exceptUuid !== undefined, (qb) => qb.where('uuid', '!=', exceptUuid ?? ''))
    .executeTakeFirst();
}

export async function updateServiceRow(db: Conn, uuid: string, set: Partial<ServiceTable>): Promise<void> {
  await db.updateTable('services').set(set).where('uuid', '=', uuid).execute();
  await moveCatalogVersion(db);
}

export async function listServiceRows(db: Conn, query: ServiceListQuery): Promise<{ rows: ServiceTable[]; total: number }> {
  let base = db.selectFrom('services').where('organization_uuid', '=', query.organization_uuid).where('deleted_on', 'is', null);
  if (query.search) {
    const like = likePattern(query.search.toLowerCase());
    base = base.where((eb) => eb.or(['name', 'code'].map((column) => likeEscaped(sql`lower(${sql.ref(column)})`, like))));
  }
  return countedSlice(base, pageSlice(query), (q) => q.selectAll().orderBy('name_key').orderBy('uuid'));
}

export async function categoriesOf(db: Conn, serviceUuids: string[]): Promise<Map<string, { uuid: string; name: string }[]>> {
  const byService = new Map<string, { uuid: string; name: string }[]>();
  if (serviceUuids.length === 0) return byService;
  const rows = await db
    .selectFrom('service_categories')
    .select(['uuid', 'name', 'service_uuid'])
    .where('service_uuid', 'in', serviceUuids)
    .orderBy('service_uuid')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const list = byService.get(row.service_uuid) ?? [];
    list.push({ uuid: row.uuid, name: row.name });
    byService.set(row.service_uuid, list);
  }
  return byService;
}

/** The live catalog of an organization, as a query builder: imports run it synchronously inside their transaction. */
export function catalogQuery(db: Kysely<Database>, organizationUuid: string) {
  return db
    .selectFrom('services')
    .select(['uuid', 'name', 'code', 'name_key', 'code_key'])
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null);
}

export function toService(row: ServiceTable, categories: { uuid: string; name: string }[]): Service {
  return {
    uuid: row.uuid,
    organization_uuid: row.organization_uuid,
    name: row.name,
    code: row.code,
    categories,
    created_on: row.created_on,
    updated_on: row.updated_on,
  };
}
