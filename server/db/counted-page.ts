import type { SelectQueryBuilder } from 'kysely';

/** Rows `offset` to `offset + limit` of a list; `pageSlice` makes one from page and per_page. */
export interface Slice {
  limit: number;
  offset: number;
}

export function pageSlice(query: { page: number; per_page: number }): Slice {
  return { limit: query.per_page, offset: (query.page - 1) * query.per_page };
}

/**
 * One slice of a filtered list and the total it is cut from: `select` picks and orders the rows of
 * `filtered`, and the same filters are counted, both read at once.
 */
export async function countedSlice<DB, TB extends keyof DB, O, R>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  slice: Slice,
  select: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, R>,
): Promise<{ rows: R[]; total: number }> {
  const [rows, count] = await Promise.all([
    select(filtered).limit(slice.limit).offset(slice.offset).execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as R[], total: Number((count as { n: number | bigint }).n) };
}
