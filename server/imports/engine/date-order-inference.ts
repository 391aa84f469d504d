import type { ColumnDateOrder } from './file-layout.ts';

/** How one date column's dates with slashes are read. */
export interface DateOrderFinding {
  column: string;
  /** The file's header over it. */
  header: string;
  /** null: the file does not settle it (the organization's date order setting decides). */
  order: ColumnDateOrder | null;
  /** request: the date_order field; file: a value settled it; none: nothing settles it. */
  source: 'request' | 'file' | 'none';
  /** The value that settled it (source file), e.g. "25/03/2026 09:00". */
  evidence: string | null;
  /** True when the file's values disagree (one reads only day first, another only month first). */
  conflicting: boolean;
}

const SLASHED = /^\s*(\d{1,2})[/.](\d{1,2})[/.]\d{2,4}/;

/**
 * Each date column's order from the file's own values: a value whose first part is above 12 can
 * only be day first (25/03/2026), one whose second part is, month first (03/25/2026). The request's
 * date_order wins; a column no value settles (or whose values disagree) is left to the organization.
 */
export function inferDateOrders(
  dateColumns: readonly string[],
  header: readonly string[],
  columnAt: readonly (string | null)[],
  rows: readonly unknown[][],
  requested: Readonly<Record<string, ColumnDateOrder>>,
): DateOrderFinding[] {
  const findings: DateOrderFinding[] = [];
  for (const column of dateColumns) {
    const at = columnAt.indexOf(column);
    if (at < 0) continue;
    const finding: DateOrderFinding = {
      column,
      header: header[at] ?? column,
      order: null,
      source: 'none',
      evidence: null,
      conflicting: false,
    };
    const wanted = requested[column];
    if (wanted) {
      findings.push({ ...finding, order: wanted, source: 'request' });
      continue;
    }
    let dayFirst: string | null = null;
    let monthFirst: string | null = null;
    for (const row of rows) {
      const value = row[at];
      if (typeof value !== 'string') continue;
      const match = SLASHED.exec(value);
      if (!match) continue;
      if (Number(match[1]) > 12 && dayFirst === null) dayFirst = value.trim();
      if (Number(match[2]) > 12 && monthFirst === null) monthFirst = value.trim();
      if (dayFirst !== null && monthFirst !== null) break;
    }
    if (dayFirst !== null && monthFirst !== null) finding.conflicting = true;
    else if (dayFirst !== null) Object.assign(finding, { order: 'day_first', source: 'file', evidence: dayFirst });
    else if (monthFirst !== null) Object.assign(finding, { order: 'month_first', source: 'file', evidence: monthFirst });
    findings.push(finding);
  }
  return findings;
}
