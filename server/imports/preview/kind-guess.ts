import { type MatchableColumns, matchColumns } from '../engine/column-matching.ts';
import type { ImportKindId } from '../schemas.ts';

type Columns = Pick<MatchableColumns, 'columns' | 'aliases' | 'synonyms'>;

/**
 * Which headers a kind's columns take, matched as an import matches them (names, aliases, synonyms
 * and confident similar spellings, column-matching.ts), without any mapping (a job's mapping is the
 * settled layout of the chosen kind, which would name every header).
 */
function takenHeaders(headers: readonly string[], kind: Columns): boolean[] {
  return matchColumns({ columns: kind.columns, aliases: kind.aliases ?? {}, synonyms: kind.synonyms ?? {} }, headers).map(
    (match) => match.applied,
  );
}

/** How many headers `kind` takes and `other` does not (the columns both read, such as location, tell nothing). */
function ownHeaders(kind: readonly boolean[], other: readonly boolean[]): number {
  return kind.filter((taken, i) => taken && !other[i]).length;
}

/** At least this many headers only another kind reads before the file is said to look like it. */
const MIN_OWN_HEADERS = 2;

/**
 * The kind a file's columns say it is, when that is not the kind it is being imported as: an
 * appointments file (start_date_time, service, duration…) dropped on the QR code import, or the
 * reverse, also when its titles are misspelt ("Strat Date Time"). Null when the columns fit the
 * chosen kind at least as well as any other.
 */
export function lookalikeKind(
  headers: readonly string[],
  chosen: Columns,
  others: readonly { id: ImportKindId; kind: Columns }[],
): ImportKindId | null {
  const chosenTaken = takenHeaders(headers, chosen);
  let best: { id: ImportKindId; own: number } | null = null;
  for (const { id, kind } of others) {
    const taken = takenHeaders(headers, kind);
    const own = ownHeaders(taken, chosenTaken);
    if (own < MIN_OWN_HEADERS || own <= ownHeaders(chosenTaken, taken)) continue;
    if (!best || own > best.own) best = { id, own };
  }
  return best?.id ?? null;
}
