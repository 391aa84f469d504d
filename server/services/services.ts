import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { writeNow } from '../db/write-now.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { type CatalogClash, type CatalogDb, CatalogWrites } from './catalog-writes.ts';
import type { CreateServiceBody, Service, ServiceListQuery, UpdateServiceBody } from './schemas.ts';
import { catalogKey, categoriesOf, findServiceRow, listServiceRows, toService } from './store.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/**
 * Adds a service, synchronously, on a connection no other write is between (the first start
 * seeds the catalog inside the transaction that makes the organization); answers its uuid.
 */
export function createServiceNow(db: CatalogDb, body: CreateServiceBody): string {
  const writes = new CatalogWrites(db);
  refuseClash(writes.clash(body.organization_uuid, { name: body.name, code: body.code ?? null }), body);
  return writes.insert(body.organization_uuid, {
    name: body.name,
    code: body.code ?? null,
    categories: body.categories.map((c) => c.name),
  });
}

export async function createService(db: Db, body: CreateServiceBody): Promise<Service> {
  const uuid = await writeNow(db, () => createServiceNow(db, body));
  return requireService(db.kysely, body.organization_uuid, uuid);
}

export async function requireService(db: Conn, organizationUuid: string, uuid: string): Promise<Service> {
  const row = await findServiceRow(db, organizationUuid, uuid);
  if (!row) throw notFound(`Service ${uuid}`);
  return toService(row, (await categoriesOf(db, [uuid])).get(uuid) ?? []);
}

export async function updateService(db: Db, organizationUuid: string, uuid: string, body: UpdateServiceBody): Promise<Service> {
  await writeNow(db, () => {
    const writes = new CatalogWrites(db);
    // Deleted meanwhile: the 404 it would be a moment later.
    if (!writes.exists(organizationUuid, uuid)) throw notFound(`Service ${uuid}`);
    refuseClash(writes.clash(organizationUuid, body, uuid), body);
    const { categories, ...fields } = body;
    writes.update(uuid, { ...fields, ...(categories ? { categories: categories.map((c) => c.name) } : {}) });
  });
  return requireService(db.kysely, organizationUuid, uuid);
}

/** Soft delete: appointments keep pointing at it, imports no longer match it, and it reads as 404. */
export async function deleteService(db: Db, organizationUuid: string, uuid: string): Promise<void> {
  await writeNow(db, () => {
    const writes = new CatalogWrites(db);
    if (!writes.exists(organizationUuid, uuid)) throw notFound(`Service ${uuid}`);
    writes.remove(uuid);
  });
}

export async function listServices(db: Kysely<Database>, query: ServiceListQuery): Promise<Page<Service>> {
  const { rows, total } = await listServiceRows(db, query);
  const categories = await categoriesOf(
    db,
    rows.map((r) => r.uuid),
  );
  return toPage({ items: rows.map((row) => toService(row, categories.get(row.uuid) ?? [])), total }, query);
}

/** The API's answer to a name or code another live service has: 409 naming the field. */
function refuseClash(clash: CatalogClash | undefined, wanted: { name?: string; code?: string | null }): void {
  if (!clash) return;
  const field = wanted.name !== undefined && clash.name_key === catalogKey(wanted.name) ? 'name' : 'code';
  const what = field === 'name' ? `the name "${clash.name}"` : `the code "${clash.code ?? ''}"`;
  const message = `Service ${clash.uuid} already has ${what} (names and codes are unique in an organization, ignoring case).`;
  throw new ApiError('CONFLICT', message, [{ path: `body.${field}`, message: `another service already has ${what}` }]);
}
