import { type Insertable, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder, sql, type Updateable } from 'kysely';
import { cachedCount, type Counter } from '../db/count-cache.ts';
import { inListOrder, type PageWindow, pageWindow } from '../db/page-window.ts';
import { findLiveRow } from '../db/live-row.ts';
import type { Database, QrCodeTable, QrCodeTagTable } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import { param, perDatabase, prepare } from '../db/prepared.ts';
import { nowIso } from '../time.ts';
import type { QrCodeListQuery } from './schemas.ts';
import { isShortSearch, trigramQuery } from '../db/trigram-search.ts';
import { shortSearchFloor, whereContains } from './search.ts';
import { indexQrCode } from './search-index.ts';

export type QrCodeRow = Selectable<QrCodeTable>;
export type QrCodeTagRow = Selectable<QrCodeTagTable>;

export async function insertQrCode(db: Kysely<Database>, row: Insertable<QrCodeTable>): Promise<void> {
  await db.insertInto('qrcodes').values(row).execute();
  await indexQrCode(db, row.uuid);
}

/** A live (not soft-deleted) QR code of the organization. */
export async function findLiveQrCode(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<QrCodeRow | undefined> {
  return findLiveRow(db, 'qrcodes', organizationUuid, uuid);
}

/** By external reference, soft-deleted ones included. */
export async function findByExternalReference(
  db: Kysely<Database>,
  organizationUuid: string,
  externalReferenceId: string,
): Promise<QrCodeRow | undefined> {
  return db
    .selectFrom('qrcodes')
    .selectAll()
    .where('organization_uuid', '=', organizationUuid)
    .where('external_reference_id', '=', externalReferenceId)
    .executeTakeFirst();
}

export async function updateQrCodeRow(db: Kysely<Database>, uuid: string, patch: Updateable<QrCodeTable>): Promise<void> {
  await db.updateTable('qrcodes').set(patch).where('uuid', '=', uuid).execute();
}

const softDeleteOf = perDatabase((db) =>
  prepare<'uuid' | 'organization_uuid' | 'now'>(
    db.sqlite,
    db.kysely
      .updateTable('qrcodes')
      .set({ deleted_on: param('now'), updated_on: param('now') })
      .where('uuid', '=', param('uuid'))
      .where('organization_uuid', '=', param('organization_uuid'))
      .where('deleted_on', 'is', null),
  ),
);

/** Soft-deletes a live QR code of the organization, synchronously (inside a write's transaction); false when there was none. */
export function softDeleteQrCode(db: Db, organizationUuid: string, uuid: string): boolean {
  return softDeleteOf(db).run({ uuid, organization_uuid: organizationUuid, now: nowIso() }).changes > 0;
}

/**
 * Newest first (insertion order, which needs no sort even with a million QR codes). `elsewhere`
 * counts the total of a search through the index, which takes 0.4 s when a million QR codes hold the term.
 */
export async function listQrCodeRows(
  db: Kysely<Database>,
  query: QrCodeListQuery,
  elsewhere?: Counter,
): Promise<{ rows: QrCodeRow[]; total: number }> {
  const term = query.search;
  const scoped = <TB extends 'qrcodes' | 'qrcode_search'>(qb: SelectQueryBuilder<Database, TB, object>) => {
    let base = qb
      .where(sql.ref('qrcodes.organization_uuid'), '=', query.organization_uuid)
      .where(sql.ref('qrcodes.deleted_on'), 'is', null);
    if (query.type) base = base.where(sql.ref('qrcodes.type'), '=', query.type);
    if (query.external_reference_id) base = base.where(sql.ref('qrcodes.external_reference_id'), '=', query.external_reference_id);
    return base;
  };
  if (!term) return listPage(db, scoped(db.selectFrom('qrcodes')), query, sql`qrcodes.rowid`);
  if (isShortSearch(term)) {
    const floor = await shortSearchFloor(db, query.organization_uuid);
    const base = whereContains(scoped(db.selectFrom('qrcodes')).where(sql.ref('qrcodes.rowid'), '>=', floor), term);
    return listPage(db, base, query, sql`qrcodes.rowid`);
  }
  // The index's candidates first (cross join keeps that order), each QR code then read by its rowid.
  const candidates = db
    .selectFrom('qrcode_search')
    .crossJoin('qrcodes')
    .where(sql<boolean>`qrcode_search match ${trigramQuery(term)}`)
    .where(sql<boolean>`qrcodes.rowid = qrcode_search.rowid`);
  return listPage(db, whereContains(scoped(candidates), term), query, sql`qrcode_search.rowid`, elsewhere);
}

/**
 * The first page is read before the total: when it is not full, its rows are the total, and most
 * searches (a reference, a street number, a name) need no count at all.
 */
async function listPage<TB extends 'qrcodes' | 'qrcode_search'>(
  db: Kysely<Database>,
  base: SelectQueryBuilder<Database, TB, object>,
  query: QrCodeListQuery,
  rowid: RawBuilder<unknown>,
  elsewhere?: Counter,
): Promise<{ rows: QrCodeRow[]; total: number }> {
  const read = (window: PageWindow) =>
    base
      .selectAll('qrcodes' as TB)
      .orderBy(rowid, window.backward ? 'asc' : 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute() as unknown as Promise<QrCodeRow[]>;
  if (query.page === 1) {
    const rows = await read({ offset: 0, limit: query.per_page, backward: false });
    if (rows.length < query.per_page) return { rows, total: rows.length };
    return { rows, total: await cachedCount(db, base, elsewhere) };
  }
  const total = await cachedCount(db, base, elsewhere);
  const window = pageWindow(total, query.page, query.per_page);
  if (!window) return { rows: [], total };
  return { rows: inListOrder(window, await read(window)), total };
}

export async function tagsOf(db: Kysely<Database>, qrCodeUuids: string[]): Promise<QrCodeTagRow[]> {
  if (qrCodeUuids.length === 0) return [];
  return db
    .selectFrom('qr_code_tags')
    .selectAll()
    .where('qr_code_uuid', 'in', qrCodeUuids)
    .orderBy('created_on')
    .orderBy('tag_name')
    .execute();
}

export async function findTag(
  db: Kysely<Database>,
  organizationUuid: string,
  tagName: string,
  tagNumber: string,
): Promise<QrCodeTagRow | undefined> {
  return db
    .selectFrom('qr_code_tags')
    .selectAll()
    .where('organization_uuid', '=', organizationUuid)
    .where('tag_name', '=', tagName)
    .where('tag_number', '=', tagNumber)
    .executeTakeFirst();
}

export async function deleteTagsOf(db: Kysely<Database>, qrCodeUuid: string): Promise<void> {
  await db.deleteFrom('qr_code_tags').where('qr_code_uuid', '=', qrCodeUuid).execute();
}

export async function insertTag(db: Kysely<Database>, row: Insertable<QrCodeTagTable>): Promise<void> {
  await db.insertInto('qr_code_tags').values(row).execute();
}
