import { restoreNeutralised } from '../reports/formula.ts';
import { ImportInputError } from '../errors.ts';
import { toNfc } from '../../text/unicode.ts';
import type { ImportKind, RawRecord } from '../kind.ts';

/** Header names match ignoring case, spaces, underscores, hyphens, a byte order mark and Unicode normalisation form. */
export function normaliseHeader(name: string): string {
  return toNfc(name)
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/** For each header cell, the kind's column it fills (or null), and the required columns no cell fills. */
export function matchHeader(
  kind: Pick<ImportKind, 'columns' | 'aliases' | 'requiredColumns'>,
  header: readonly string[],
): { mapping: (string | null)[]; missing: string[] } {
  const byKey = new Map<string, string>();
  for (const column of kind.columns) byKey.set(normaliseHeader(column), column);
  for (const [alias, column] of Object.entries(kind.aliases ?? {})) byKey.set(normaliseHeader(alias), column);
  const taken = new Set<string>();
  const mapping = header.map((cell) => {
    const column = byKey.get(normaliseHeader(String(cell ?? '')));
    if (!column || taken.has(column)) return null;
    taken.add(column);
    return column;
  });
  return { mapping, missing: kind.requiredColumns.filter((column) => !taken.has(column)) };
}

/** For each header cell, the kind's column it fills (or null), checking required columns are present. */
export function mapHeader(kind: Pick<ImportKind, 'columns' | 'aliases' | 'requiredColumns'>, header: readonly string[]): (string | null)[] {
  const { mapping, missing } = matchHeader(kind, header);
  if (missing.length > 0) {
    const found = header.map((h) => String(h ?? '').trim()).filter(Boolean);
    throw new ImportInputError(
      `The file is missing the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. ` +
        `Its header row has: ${found.length ? found.join(', ') : '(nothing)'}. ` +
        `Expected columns: ${kind.columns.join(', ')} (download the template from the bulk/template endpoint).`,
    );
  }
  return mapping;
}

/** Header cells that fill a column an earlier cell already fills, as "cell (column)" texts. */
export function duplicateHeaders(kind: Pick<ImportKind, 'columns' | 'aliases'>, header: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const column of kind.columns) byKey.set(normaliseHeader(column), column);
  for (const [alias, column] of Object.entries(kind.aliases ?? {})) byKey.set(normaliseHeader(alias), column);
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  for (const cell of header) {
    const name = String(cell ?? '').trim();
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
export function withColumnAliases(
  kind: ImportKind,
  options: Record<string, unknown>,
): Pick<ImportKind, 'columns' | 'aliases' | 'requiredColumns'> {
  const extra = options.columnAliases;
  if (!extra || typeof extra !== 'object') return kind;
  return {
    columns: kind.columns,
    requiredColumns: kind.requiredColumns,
    aliases: { ...kind.aliases, ...(extra as Record<string, string>) },
  };
}
