import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ImportHandlerTable } from '../db/schema.ts';
import type { ImportKindId } from '../imports/schemas.ts';
import type { ImportHandler, ImportHandlerListQuery } from './schemas.ts';
import { countedSlice, pageSlice } from '../db/counted-page.ts';

export function toImportHandler(row: Selectable<ImportHandlerTable>): ImportHandler {
  // Migration 020 gave every older row the kind it could have: appointments.
  return { ...row, kind: row.kind as ImportKindId, mapping: JSON.parse(row.mapping) as Record<string, string> };
}

export async function insertHandler(db: Kysely<Database>, row: Insertable<ImportHandlerTable>): Promise<void> {
  await db.insertInto('import_handlers').values(row).execute();
}

export async function updateHandler(db: Kysely<Database>, uuid: string, set: Updateable<ImportHandlerTable>): Promise<void> {
  await db.updateTable('import_handlers').set(set).where('uuid', '=', uuid).execute();
}

export async function deleteHandler(db: Kysely<Database>, uuid: string): Promise<void> {
  await db.deleteFrom('import_handlers').where('uuid', '=', uuid).execute();
}

/** The organization's saved import handlers, every column: narrow it with one more where. */
function handlersOf(db: Kysely<Database>, organizationUuid: string) {
  return db.selectFrom('import_handlers').selectAll().where('organization_uuid', '=', organizationUuid);
}

export function findHandler(db: Kysely<Database>, organizationUuid: string, uuid: string) {
  return handlersOf(db, organizationUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** An organization's saved mappings of one import kind (tens at most, made one by one), in slug order. */
export function handlersOfKind(db: Kysely<Database>, organizationUuid: string, kind: string) {
  return handlersOf(db, organizationUuid).where('kind', '=', kind).orderBy('slug').execute();
}

export function findHandlerBySlug(db: Kysely<Database>, organizationUuid: string, slug: string) {
  return handlersOf(db, organizationUuid).where('slug', '=', slug).executeTakeFirst();
}

export async function handlerSlugs(db: Kysely<Database>, organizationUuid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('import_handlers')
    .select('slug')
    .where('organization_uuid', '=', organizationUuid)
    .orderBy('slug')
    .execute();
  return rows.map((r) => r.slug);
}

export async function listHandlers(db: Kysely<Database>, query: ImportHandlerListQuery) {
  const all = db.selectFrom('import_handlers').where('organization_uuid', '=', query.organization_uuid);
  const base = query.kind ? all.where('kind', '=', query.kind) : all;
  const { rows, total } = await countedSlice(base, pageSlice(query), (q) => q.selectAll().orderBy('slug'));
  return { items: rows.map(toImportHandler), total };
}
