import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { cachedCount } from '../db/count-cache.ts';
import { inListOrder, pageWindow } from '../db/page-window.ts';
import type { Database, QrCodeTable, QrCodeTagTable } from '../db/schema.ts';
import { nowIso } from '../time.ts';
import type { QrCodeListQuery } from './schemas.ts';

export type QrCodeRow = Selectable<QrCodeTable>;
export type QrCodeTagRow = Selectable<QrCodeTagTable>;

export async function insertQrCode(db: Kysely<Database>, row: Insertable<QrCodeTable>): Promise<void> {
  await db.insertInto('qrcodes').values(row).execute();
}

/** A live (not soft-deleted) QR code of the organization. */
export async function findLiveQrCode(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<QrCodeRow | undefined> {
  return db
    .selectFrom('qrcodes')
    .selectAll()
    .where('uuid', '=', uuid)
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null)
    .executeTakeFirst();
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

export async function softDeleteQrCode(db: Kysely<Database>, uuid: string): Promise<void> {
  const now = nowIso();
  await db.updateTable('qrcodes').set({ deleted_on: now, updated_on: now }).where('uuid', '=', uuid).execute();
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Newest first (insertion order, which needs no sort even with a million QR codes). */
export async function listQrCodeRows(db: Kysely<Database>, query: QrCodeListQuery): Promise<{ rows: QrCodeRow[]; total: number }> {
  let base = db.selectFrom('qrcodes').where('organization_uuid', '=', query.organization_uuid).where('deleted_on', 'is', null);
  if (query.type) base = base.where('type', '=', query.type);
  if (query.external_reference_id) base = base.where('external_reference_id', '=', query.external_reference_id);
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    // SQLite's LIKE ignores ASCII case.
    base = base.where((eb) =>
      eb.or(
        (['name', 'location', 'label', 'external_reference_id'] as const).map(
          (column) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const total = await cachedCount(db, base);
  const window = pageWindow(total, query.page, query.per_page);
  if (!window) return { rows: [], total };
  const rows = await base
    .selectAll()
    .orderBy(sql`qrcodes.rowid`, window.backward ? 'asc' : 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: inListOrder(window, rows), total };
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
