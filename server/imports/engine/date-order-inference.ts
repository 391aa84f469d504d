import type { ColumnDateOrder, DateOrderFinding } from './file-layout.ts';

export type { DateOrderFinding };

const SLASHED = /^\s*(\d{1,2})[/.](\d{1,2})[/.]\d{2,4}/;

/**
 * Each date column's order, from the first rows below the header (docs/imports.md, "Dates are read
 * per column"): the request's date_order first; else the file settles it when it proves one order:
 * a value only that order can read (first part above 12: only day first, 25/03/2026; second part
 * above 12: only month first, 03/25/2026) and none only the other can. A column no value settles,
 * or whose values disagree, is left to the organization's date order setting.
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
