import { restoreNeutralised } from '../reports/formula.ts';
import { ImportInputError } from '../errors.ts';
import { type ColumnMatch, matchColumns, type MatchableColumns, normaliseHeader } from './column-matching.ts';
import type { ImportKind, RawRecord } from '../kind.ts';
import { fileLayoutOf } from './file-layout.ts';

export { normaliseHeader };

/** What header matching needs of a kind, with a job's own header names and mapping. */
export type HeaderSpec = Pick<ImportKind, 'columns' | 'aliases' | 'requiredColumns' | 'synonyms' | 'requiredUnless'> &
  Pick<MatchableColumns, 'explicit'> & {
    /** The job's own title of a column (a saved column mapping's), which messages name it by. */
    titles?: Readonly<Record<string, string>>;
  };

/** Required columns the matched ones leave missing (a column counts as present when one of its stand-ins is). */
export function missingRequired(kind: Pick<HeaderSpec, 'requiredColumns' | 'requiredUnless'>, matched: ReadonlySet<string>): string[] {
  return kind.requiredColumns.filter(
    (column) => !matched.has(column) && !(kind.requiredUnless?.[column] ?? []).some((set) => set.every((other) => matched.has(other))),
  );
}

/** A required column in words: "location (or address_line_1 with suburb)", 'start_date_time (titled "Visit Start")'. */
export function describeRequired(kind: Pick<HeaderSpec, 'requiredUnless' | 'titles'>, column: string): string {
  const title = kind.titles?.[column];
  const named = title === undefined ? column : `${column} (titled "${title}")`;
  const sets = kind.requiredUnless?.[column] ?? [];
  return sets.length > 0 ? `${named} (or ${sets.map((set) => set.join(' with ')).join(', or ')})` : named;
}

/** For each header cell, the kind's column it fills (or null), every cell's match, and the required columns no cell fills. */
export function matchHeader(
  kind: HeaderSpec,
  header: readonly string[],
): { mapping: (string | null)[]; missing: string[]; matches: ColumnMatch[] } {
  const matches = matchColumns(kind, header);
  const mapping = matches.map((match) => (match.applied ? match.column : null));
  const taken = new Set(mapping.filter((column): column is string => column !== null));
  return { mapping, missing: missingRequired(kind, taken), matches };
}

/** For each header cell, the kind's column it fills (or null), checking required columns are present. */
export function mapHeader(kind: HeaderSpec, header: readonly string[]): (string | null)[] {
  const { mapping, missing, matches } = matchHeader(kind, header);
  if (missing.length > 0) {
    const found = header.map((h) => String(h ?? '').trim()).filter(Boolean);
    const questions = matches.filter((m) => !m.applied && m.proposed !== null).map((m) => `"${m.header.trim()}" as ${m.proposed}?`);
    throw new ImportInputError(
      `The file is missing the required column${missing.length > 1 ? 's' : ''} ${missing.map((c) => describeRequired(kind, c)).join(', ')}. ` +
        `Its header row has: ${found.length ? found.join(', ') : '(nothing)'}. ` +
        (questions.length ? `Unsure matches, confirm them with the mapping field: ${questions.join(' ')} ` : '') +
        `Expected columns: ${kind.columns.join(', ')} (download the template from the bulk/template endpoint, or send a mapping).`,
    );
  }
  return mapping;
}

/** Header cells that fill a column an earlier cell already fills, as "cell (column)" texts. */
export function duplicateHeaders(kind: Pick<HeaderSpec, 'columns' | 'aliases' | 'explicit'>, header: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const column of kind.columns) byKey.set(normaliseHeader(column), column);
  for (const [alias, column] of Object.entries(kind.aliases ?? {})) byKey.set(normaliseHeader(alias), column);
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  for (const cell of header) {
    const name = String(cell ?? '').trim();
    // A header the user mapped was chosen on purpose; two mapped to one column are refused where the mapping is read.
    if (kind.explicit && Object.hasOwn(kind.explicit, name)) continue;
    const column = byKey.get(normaliseHeader(name));
    if (!column) continue;
    const first = seen.get(column);
    if (first === undefined) seen.set(column, name);
    else duplicates.push(first === name ? `"${name}" appears more than once` : `"${first}" and "${name}" both fill ${column}`);
  }
  return duplicates;
}

/** A file row as a record of the kind's columns; cells our reports neutralised read as typed. */
export function recordFromCells(mapping: readonly (string | null)[], cells: readonly unknown[]): RawRecord {
  const record: RawRecord = {};
  for (let i = 0; i < mapping.length; i++) {
    const column = mapping[i];
    if (column) record[column] = restoreNeutralised(cells[i]);
  }
  return record;
}

/** A JSON element as a record of the kind's columns (keys matched like header cells; unknown keys dropped). */
export function recordFromObject(
  kind: Pick<ImportKind, 'columns' | 'aliases'>,
  keyMap: Map<string, string | null>,
  value: Record<string, unknown>,
): RawRecord {
  const record: RawRecord = {};
  for (const key of Object.keys(value)) {
    let column = keyMap.get(key);
    if (column === undefined) {
      const normal = normaliseHeader(key);
      column = kind.columns.find((c) => normaliseHeader(c) === normal) ?? null;
      if (!column) {
        const alias = Object.entries(kind.aliases ?? {}).find(([a]) => normaliseHeader(a) === normal);
        column = alias ? alias[1] : null;
      }
      keyMap.set(key, column);
    }
    if (column && record[column] === undefined) record[column] = value[key];
  }
  return record;
}

/** No value: null, undefined or text of white space only. */
export function isBlankCell(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

export function isBlankRow(cells: readonly unknown[]): boolean {
  for (const cell of cells) if (!isBlankCell(cell)) return false;
  return true;
}

/**
 * The kind's columns plus a job's own header names (`options.columnAliases`, { header: column }),
 * e.g. a saved column mapping chosen by org_identifier.
 */
export function withColumnAliases(kind: ImportKind, options: Record<string, unknown>): HeaderSpec {
  const extra = options.columnAliases;
  const explicit = fileLayoutOf(options).mapping;
  const titles: Record<string, string> = {};
  if (extra && typeof extra === 'object')
    for (const [title, column] of Object.entries(extra as Record<string, string>)) titles[column] ??= title;
  return {
    titles,
    columns: kind.columns,
    requiredColumns: kind.requiredColumns,
    ...(kind.requiredUnless ? { requiredUnless: kind.requiredUnless } : {}),
    ...(kind.synonyms ? { synonyms: kind.synonyms } : {}),
    aliases: extra && typeof extra === 'object' ? { ...kind.aliases, ...(extra as Record<string, string>) } : (kind.aliases ?? {}),
    ...(explicit ? { explicit } : {}),
  };
}
