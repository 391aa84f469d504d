import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ShadowExtra } from '../imports/kind.ts';

/**
 * Adds a QR code just inserted to the search index (migration 014). Every insert into qrcodes runs
 * this in its transaction: the index has no insert trigger, which made a million-row import
 * several times slower.
 */
export const INDEX_QR_CODE_SQL =
  'insert into qrcode_search (rowid, name, location, label, external_reference_id) select rowid, name, location, label, external_reference_id from qrcodes where uuid = ?';

/**
 * The same for every row inserted since (and with) the rowid given, in one statement: an import
 * indexes its batch's new rows at the batch's end. One statement a row cost the index a flush of
 * its pending terms each, twice the CPU time of a million-row import.
 */
export const INDEX_INSERTED_SINCE_SQL =
  'insert into qrcode_search (rowid, name, location, label, external_reference_id) select rowid, name, location, label, external_reference_id from qrcodes where rowid >= ?';

/**
 * The index's triggers (updates and deletes). A dry run's shadow of qrcodes goes without them:
 * nothing it writes is searched. Its writes to the index go to a plain temporary table.
 */
export const SEARCH_INDEX_SHADOW: ShadowExtra = {
  table: 'qrcodes',
  skippedTriggers: new Set(['qrcode_search_update', 'qrcode_search_delete']),
  sql: 'create temp table qrcode_search (name, location, label, external_reference_id)',
};

export async function indexQrCode(db: Kysely<Database>, uuid: string): Promise<void> {
  await sql`insert into qrcode_search (rowid, name, location, label, external_reference_id) select rowid, name, location, label, external_reference_id from qrcodes where uuid = ${uuid}`.execute(
    db,
  );
}
