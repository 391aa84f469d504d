import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { cachedCount } from '../db/count-cache.ts';
import type { Database } from '../db/schema.ts';

/** A total up to this is read in one statement (a few ms); above it, counted in slices. */
const ONE_STATEMENT_MATCHES = 5_000;
/** Rowids of the index per counting statement: about 20 ms where every QR code matches. */
const SLICE_ROWIDS = 50_000;

type IndexSearch = SelectQueryBuilder<Database, 'qrcode_search' | 'qrcodes', object>;

/**
 * The total of an index search. A term that a million QR codes hold takes 0.4 s to count, and
 * one statement would hold every other request of the server that long: such a total is counted
 * in slices of the index's rowids with a turn of the event loop between them. Like a list read a
 * page at a time, a total counted while another connection writes may be off by those writes.
 */
export async function searchTotal(db: Kysely<Database>, search: IndexSearch): Promise<number> {
  const few = await search
    .select(sql<number>`1`.as('one'))
    .limit(ONE_STATEMENT_MATCHES + 1)
    .execute();
  if (few.length <= ONE_STATEMENT_MATCHES) return few.length;
  const last = await db.selectFrom('qrcodes').select(sql<number>`max(rowid)`.as('id')).executeTakeFirst();
  const top = Number(last?.id ?? 0);
  let total = 0;
  for (let from = 0; from < top; from += SLICE_ROWIDS) {
    const slice = search.where(sql`qrcode_search.rowid`, '>', from).where(sql`qrcode_search.rowid`, '<=', from + SLICE_ROWIDS);
    total += await cachedCount(db, slice);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}
