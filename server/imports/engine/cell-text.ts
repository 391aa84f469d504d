import type { RawRecord } from './raw-record.ts';

/** Generic helpers of a kind's row checks: cells as text, the excluded row's echo. */

/** A spreadsheet cell as text: numbers keep their digits (800, not 800.0), dates as YYYY-MM-DD; blank is undefined. */
export function cellText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return undefined;
}

/**
 * Cells as trimmed text (numbers keep their digits, blanks become missing), in one pass before
 * the schema: the schema then only checks plain strings, which zod does fast.
 */
export function cellsAsText(record: RawRecord): RawRecord {
  const out: RawRecord = {};
  for (const key in record) {
    const value = record[key];
    out[key] = typeof value === 'object' && value !== null && !(value instanceof Date) ? value : cellText(value);
  }
  return out;
}

/** An excluded row's echo (ImportKind.echo): these fields as text (a spreadsheet's number 3999 echoes as "3999"), null when absent. */
export function echoAsText(fields: readonly string[]): (record: RawRecord) => Record<string, unknown> {
  return (record) => {
    const row: Record<string, unknown> = {};
    for (const field of fields) {
      const value = record[field];
      row[field] = typeof value === 'string' ? value : (cellText(value) ?? null);
    }
    return row;
  };
}
