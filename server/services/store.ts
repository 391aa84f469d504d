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
 * reads it again. The catalog's writes (catalog-writes.ts) do; so does the demo reset, which deletes it whole.
 */
export async function moveCatalogVersion(db: Conn): Promise<void> {
  await db
    .updateTable('change_counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'service_catalog')
    .execute();
}

export function findServiceRow(db: Conn, organizationUuid: string, uuid: string): Promise<ServiceTable | undefined> {
  return findLiveRow(db, 'services', organizationUuid, uuid);
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
