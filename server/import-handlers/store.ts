import type { Kysely, Selectable } from 'kysely';
import type { AppointmentField } from '../appointments/fields.ts';
import type { Database, ImportHandlerTable } from '../db/schema.ts';
import type { ImportHandler, ImportHandlerListQuery } from './schemas.ts';
import { countedSlice, pageSlice } from '../db/counted-page.ts';

export function toImportHandler(row: Selectable<ImportHandlerTable>): ImportHandler {
  return { ...row, mapping: JSON.parse(row.mapping) as Record<string, AppointmentField> };
}

export async function insertHandler(db: Kysely<Database>, row: ImportHandlerTable): Promise<void> {
  await db.insertInto('import_handlers').values(row).execute();
}

export async function updateHandler(db: Kysely<Database>, uuid: string, set: Partial<ImportHandlerTable>): Promise<void> {
  await db.updateTable('import_handlers').set(set).where('uuid', '=', uuid).execute();
}

export async function deleteHandler(db: Kysely<Database>, uuid: string): Promise<void> {
  await db.deleteFrom('import_handlers').where('uuid', '=', uuid).execute();
}

export function findHandler(db: Kysely<Database>, organizationUuid: string, uuid: string) {
  return db
    .selectFrom('import_handlers')
    .selectAll()
    .where('organization_uuid', '=', organizationUuid)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export function findHandlerBySlug(db: Kysely<Database>, organizationUuid: string, slug: string) {
  return db
    .selectFrom('import_handlers')
    .selectAll()
    .where('organization_uuid', '=', organizationUuid)
    .where('slug', '=', slug)
    .executeTakeFirst();
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
  const base = db.selectFrom('import_handlers').where('organization_uuid', '=', query.organization_uuid);
  const { rows, total } = await countedSlice(base, pageSlice(query), (q) => q.selectAll().orderBy('slug'));
  return { items: rows.map(toImportHandler), total };
}
