import { distance } from 'fastest-levenshtein';
import { toNfc } from '../../text/unicode.ts';

/**
 * Matches a file's header cells to a kind's columns the way people name them: the user's own
 * mapping first, then the column names and aliases, then the kind's synonyms ("Street Address",
 * "Tag #"), then similarity (edit distance, fastest-levenshtein) to any of those names. Each match
 * has a confidence from 0 to 1; one below MATCH_THRESHOLD is only proposed, never applied.
 */

/** Below this confidence a proposed match is a question for the user, not a match. */
export const MATCH_THRESHOLD = 0.8;

/** Similar names are proposed from this similarity on (below it the header is simply unknown: "error" is not asked about as "state"). */
const PROPOSE_FROM = 0.6;

/**
 * Longest header (and name) compared by similarity: edit distance costs the product of the two
 * lengths, so a 1 MB header cell against a 1 MB saved title would take minutes. A longer header
 * is still matched exactly (by name, alias, synonym or the user's mapping), never as "similar".
 */
export const MAX_SIMILAR_HEADER_CHARS = 256;

/** The columns an error report adds to the file's own (reports/report.ts): a fixed report is imported with them, and they are ignored. */
const REPORT_COLUMNS: ReadonlySet<string> = new Set(['sheet', 'rownumber', 'error']);

/** How a match was made: the request's mapping (the user's choice), a saved mapping, a column name or alias, a synonym, a similar spelling, or none. */
export type MatchSource = 'mapping' | 'saved' | 'name' | 'synonym' | 'similar' | 'none';

/** The sources a user has to confirm before an import: a similar spelling is a guess, however close. */
const GUESSED_SOURCES: ReadonlySet<MatchSource> = new Set(['similar']);

/** Whether a match is a guess the user should confirm (a similar spelling), applied or only proposed. */
export function needsConfirmation(match: Pick<ColumnMatch, 'source' | 'proposed'>): boolean {
  return match.proposed !== null && GUESSED_SOURCES.has(match.source);
}

export interface ColumnMatch {
  header: string;
  /** The column the header fills, or null (ignored, unknown, or a question). */
  column: string | null;
  /** The column proposed (equals `column` when applied); null when nothing is near. */
  proposed: string | null;
  confidence: number;
  source: MatchSource;
  /** True when the import reads this header into `column`. */
  applied: boolean;
}

export interface MatchableColumns {
  columns: readonly string[];
  /** { header name: column }, matched like the column names. */
  aliases?: Readonly<Record<string, string>>;
  /** { column: other names people give it }. */
  synonyms?: Readonly<Record<string, readonly string[]>>;
  /** { header text: column or null to ignore it }: the user's own choice, matched first. */
  explicit?: Readonly<Record<string, string | null>>;
  /** Where `explicit` came from: the request's mapping (default) or a saved mapping the file fits. */
  explicitSource?: 'mapping' | 'saved';
}

/** Header names match ignoring case, spaces, underscores, hyphens, a byte order mark and Unicode normalisation form. */
export function normaliseHeader(name: string): string {
  return toNfc(name)
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/** A looser key for synonyms and similarity: letters and digits only, "#" read as "number", "no." as "number". */
function looseKey(name: string): string {
  return toNfc(name)
    .toLowerCase()
    .replace(/#/g, ' number ')
    .replace(/\bno\b\.?/g, ' number ')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : 1 - distance(a, b) / longest;
}

interface Candidate {
  column: string | null;
  proposed: string | null;
  confidence: number;
  source: MatchSource;
}

/** The best match of one header on its own (before two headers compete for a column). */
function candidateFor(spec: MatchableColumns, header: string): Candidate {
  const trimmed = header.trim();
  const explicit = spec.explicit;
  if (explicit) {
    const key = normaliseHeader(trimmed);
    const wanted = Object.hasOwn(explicit, trimmed)
      ? explicit[trimmed]
      : Object.entries(explicit).find(([title]) => normaliseHeader(title) === key)?.[1];
    if (wanted !== undefined) {
      // The user's own columns keep how a column was found when they chose what was found by name or synonym.
      const found = spec.explicitSource === undefined && wanted !== null ? foundCandidate(spec, trimmed) : null;
      if (found?.column === wanted && (found.source === 'name' || found.source === 'synonym')) return found;
      return { column: wanted, proposed: wanted, confidence: 1, source: spec.explicitSource ?? 'mapping' };
    }
  }
  return foundCandidate(spec, trimmed);
}

/** The match of a header by its name, a synonym or a similar spelling, whatever a mapping says. */
function foundCandidate(spec: MatchableColumns, trimmed: string): Candidate {
  const key = normaliseHeader(trimmed);
  if (key === '' || REPORT_COLUMNS.has(key)) return { column: null, proposed: null, confidence: 0, source: 'none' };
  for (const column of spec.columns)
    if (normaliseHeader(column) === key) return { column, proposed: column, confidence: 1, source: 'name' };
  for (const [alias, column] of Object.entries(spec.aliases ?? {})) {
    if (normaliseHeader(alias) === key) return { column, proposed: column, confidence: 1, source: 'name' };
  }
  const loose = looseKey(trimmed);
  for (const [column, names] of Object.entries(spec.synonyms ?? {})) {
    if (names.some((name) => looseKey(name) === loose)) return { column, proposed: column, confidence: 0.95, source: 'synonym' };
  }
  let best: Candidate = { column: null, proposed: null, confidence: 0, source: 'none' };
  if (loose.length > MAX_SIMILAR_HEADER_CHARS) return best;
  const consider = (column: string, name: string) => {
    if (name.length > MAX_SIMILAR_HEADER_CHARS * 4) return;
    const score = Math.round(similarity(loose, looseKey(name)) * 0.95 * 100) / 100;
    if (score > best.confidence) best = { column, proposed: column, confidence: score, source: 'similar' };
  };
  for (const column of spec.columns) consider(column, column);
  for (const [alias, column] of Object.entries(spec.aliases ?? {})) consider(column, alias);
  for (const [column, names] of Object.entries(spec.synonyms ?? {})) for (const name of names) consider(column, name);
  if (best.confidence < PROPOSE_FROM) return { column: null, proposed: null, confidence: 0, source: 'none' };
  return best;
}

/**
 * Every header cell's match. Two headers never fill one column: the more confident keeps it (the
 * first on a tie) and the other is left unmatched.
 */
export function matchColumns(spec: MatchableColumns, header: readonly string[]): ColumnMatch[] {
  const candidates = header.map((cell) => candidateFor(spec, String(cell ?? '')));
  const order = candidates.map((_, i) => i).sort((a, b) => (candidates[b]?.confidence ?? 0) - (candidates[a]?.confidence ?? 0) || a - b);
  const taken = new Set<string>();
  const matches: ColumnMatch[] = header.map((cell) => ({
    header: String(cell ?? ''),
    column: null,
    proposed: null,
    confidence: 0,
    source: 'none',
    applied: false,
  }));
  for (const i of order) {
    const candidate = candidates[i];
    const match = matches[i];
    if (!candidate || !match) continue;
    const column = candidate.proposed;
    if (column === null) {
      if (candidate.source === 'mapping' || candidate.source === 'saved') Object.assign(match, { source: candidate.source, confidence: 1 });
      continue;
    }
    if (taken.has(column)) continue;
    const applied = candidate.confidence >= MATCH_THRESHOLD;
    if (applied) taken.add(column);
    Object.assign(match, {
      column: applied ? column : null,
      proposed: column,
      confidence: candidate.confidence,
      source: candidate.source,
      applied,
    });
  }
  return matches;
}
