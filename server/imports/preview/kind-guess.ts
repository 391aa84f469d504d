import { normaliseHeader } from '../engine/columns.ts';
import type { ImportKind } from '../kind.ts';
import type { ImportKindId } from '../schemas.ts';

type Columns = Pick<ImportKind, 'columns' | 'aliases'>;

/** The header names a kind reads (its columns and their aliases), normalised as headers are matched. */
function headerKeys(kind: Columns): Set<string> {
  return new Set([...kind.columns, ...Object.keys(kind.aliases ?? {})].map(normaliseHeader));
}

/** How many of the headers only `kind` reads, not `other` (the columns both read, such as location, tell nothing). */
function ownHeaders(headers: readonly string[], kind: Set<string>, other: Set<string>): number {
  return headers.filter((header) => {
    const key = normaliseHeader(header);
    return key !== '' && kind.has(key) && !other.has(key);
  }).length;
}

/** At least this many headers only another kind reads before the file is said to look like it. */
const MIN_OWN_HEADERS = 2;

/**
 * The kind a file's columns say it is, when that is not the kind it is being imported as: an
 * appointments file (start_date_time, service, duration…) dropped on the QR code import, or the
 * reverse. Null when the columns fit the chosen kind at least as well as any other.
 */
export function lookalikeKind(
  headers: readonly string[],
  chosen: Columns,
  others: readonly { id: ImportKindId; kind: Columns }[],
): ImportKindId | null {
  const chosenKeys = headerKeys(chosen);
  let best: { id: ImportKindId; own: number } | null = null;
  for (const { id, kind } of others) {
    const keys = headerKeys(kind);
    const own = ownHeaders(headers, keys, chosenKeys);
    if (own < MIN_OWN_HEADERS || own <= ownHeaders(headers, chosenKeys, keys)) continue;
    if (!best || own > best.own) best = { id, own };
  }
  return best?.id ?? null;
}
