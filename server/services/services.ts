import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { nowIso } from '../time.ts';
import type { CreateServiceBody, Service, ServiceListQuery, UpdateServiceBody } from './schemas.ts';
import {
  catalogKey,
  categoriesOf,
  findClash,
  findServiceRow,
  insertService,
  listServiceRows,
  replaceCategories,
  toService,
  updateServiceRow,
} from './store.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** In a transaction of its own, or in the caller's when `db` is one (the first start seeds the catalog with the organization). */
export async function createService(db: Conn, body: CreateServiceBody): Promise<Service> {
  const create = async (trx: Transaction<Database>) => {
    const name_key = catalogKey(body.name);
    const code_key = body.code ? catalogKey(body.code) : null;
    await refuseClash(trx, body.organization_uuid, { name_key, code_key });
    const now = nowIso();
    const uuid = randomUUID();
    await insertService(trx, {
      uuid,
      organization_uuid: body.organization_uuid,
      name: body.name,
      name_key,
      code: body.code ?? null,
      code_key,
      created_on: now,
      updated_on: now,
      deleted_on: null,
    });
    await replaceCategories(
      trx,
      uuid,
      body.categories.map((c) => ({ uuid: randomUUID(), name: c.name })),
    );
    return requireService(trx, body.organization_uuid, uuid);
  };
  return db.isTransaction ? create(db as Transaction<Database>) : db.transaction().execute(create);
}

export async function requireService(db: Conn, organizationUuid: string, uuid: string): Promise<Service> {
  const row = await findServiceRow(db, organizationUuid, uuid);
  if (!row) throw notFound(`Service ${uuid}`);
  return toService(row, (await categoriesOf(db, [uuid])).get(uuid) ?? []);
}

export async function updateService(
  db: Kysely<Database>,
  organizationUuid: string,
  uuid: string,
  body: UpdateServiceBody,
): Promise<Service> {
  return db.transaction().execute(async (trx) => {
    await requireService(trx, organizationUuid, uuid);
    const name_key = body.name === undefined ? undefined : catalogKey(body.name);
    const code_key = body.code === undefined ? undefined : body.code === null ? null : catalogKey(body.code);
    await refuseClash(trx, organizationUuid, { name_key, code_key }, uuid);
    await updateServiceRow(trx, uuid, {
      ...(body.name === undefined ? {} : { name: body.name, name_key }),
      ...(body.code === undefined ? {} : { code: body.code, code_key }),
      updated_on: nowIso(),
    });
    if (body.categories) {
      const kept = new Map((await categoriesOf(trx, [uuid])).get(uuid)?.map((c) => [c.name.toLowerCase(), c.uuid]));
      await replaceCategories(
        trx,
        uuid,
        body.categories.map((c) => ({ uuid: kept.get(c.name.toLowerCase()) ?? randomUUID(), name: c.name })),
      );
    }
    return requireService(trx, organizationUuid, uuid);
  });
}

/** Soft delete: appointments keep pointing at it, imports no longer match it, and it reads as 404. */
export async function deleteService(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<void> {
  await requireService(db, organizationUuid, uuid);
  await updateServiceRow(db, uuid, { deleted_on: nowIso() });
}

export async function listServices(db: Kysely<Database>, query: ServiceListQuery): Promise<Page<Service>> {
  const { rows, total } = await listServiceRows(db, query);
  const categories = await categoriesOf(
    db,
    rows.map((r) => r.uuid),
  );
  return toPage({ items: rows.map((row) => toService(row, categories.get(row.uuid) ?? [])), total }, query);
}

async function refuseClash(db: Conn, organizationUuid: string, keys: { name_key?: string; code_key?: string | null }, exceptUuid?: string) {
  if (!keys.name_key && !keys.code_key) return;
  const clash = await findClash(db, organizationUuid, keys, exceptUuid);
  if (!clash) return;
  const field = keys.name_key && clash.name_key === keys.name_key ? 'name' : 'code';
  const what = field === 'name' ? `the name "${clash.name}"` : `the code "${clash.code ?? ''}"`;
  const message = `Service ${clash.uuid} already has ${what} (names and codes are unique in an organization, ignoring case).`;
  throw new ApiError('CONFLICT', message, [{ path: `body.${field}`, message: `another service already has ${what}` }]);
}
