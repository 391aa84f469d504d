/** Where to read one page of an ordered list, and whether in reverse. */
export interface PageWindow {
  offset: number;
  limit: number;
  /** Read in the reverse order from this offset from the end, then reverse the rows. */
  backward: boolean;
}

/**
 * One page of `total` rows read from the nearer end: a page in the second half is read in the
 * reverse order with a small offset (and reversed by the caller), so the last page of a million
 * costs what the first does instead of stepping over every row before it. Null past the end.
 */
export function pageWindow(total: number, page: number, perPage: number): PageWindow | null {
  const offset = (page - 1) * perPage;
  if (offset >= total) return null;
  const limit = Math.min(perPage, total - offset);
  const fromEnd = total - offset - limit;
  return fromEnd < offset ? { offset: fromEnd, limit, backward: true } : { offset, limit, backward: false };
}

/** The rows of a window in the list's order. */
export function inListOrder<T>(window: PageWindow, rows: T[]): T[] {
  return window.backward ? rows.reverse() : rows;
}
