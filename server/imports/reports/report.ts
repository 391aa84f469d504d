import type { Response } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { neutraliseFormula } from './formula.ts';
import { csvLines, sendTable, type TableFormat } from './table-download.ts';
import { excludedRowsPage, storedRowNumber } from '../workers/job-store.ts';

export type ReportFormat = TableFormat;

const PAGE = 1000;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export interface ReportLayout {
  /** The import's own columns, as its file's header had them (or the kind's columns for JSON). */
  columns: string[];
  /** JSON rows are objects keyed by column; file rows are arrays aligned with the columns. */
  rowsAreObjects: boolean;
  /** Every row the import excluded; beyond the ones kept (serve --max-stored-excluded-rows) the report ends with a line that says how many it leaves out. */
  excludedCount: number;
  /** The workbook's sheet the rows are on, when it has several (file-layout.ts sheetToName): a `sheet` column before row_number names it. */
  sheet?: string | null;
}

/** The report's last line when the import kept only its first excluded rows. */
function omittedNote(listed: number, total: number): string {
  return `${(total - listed).toLocaleString('en-US')} more excluded rows are not listed: the import kept the first ${listed.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} with their cells (serve --max-stored-excluded-rows, and at most 64 M characters of their text); the count is exact.`;
}

async function* reportRows(db: Kysely<Database>, taskUuid: string, layout: ReportLayout): AsyncGenerator<string[]> {
  const sheet = layout.sheet ? [layout.sheet] : [];
  let after = -1;
  let listed = 0;
  for (;;) {
    const page = await excludedRowsPage(db, taskUuid, after, PAGE);
    if (page.length === 0) break;
    listed += page.length;
    for (const row of page) {
      const cells = JSON.parse(row.cells) as unknown;
      const values = layout.rowsAreObjects
        ? layout.columns.map((c) =>
            text(cells && typeof cells === 'object' && !Array.isArray(cells) ? (cells as Record<string, unknown>)[c] : undefined),
          )
        : layout.columns.map((_c, i) => text(Array.isArray(cells) ? cells[i] : undefined));
      yield [...values, ...sheet, String(storedRowNumber(row)), row.error];
    }
    after = page[page.length - 1]?.row_index ?? after;
  }
  if (listed < layout.excludedCount)
    yield [...layout.columns.map(() => ''), ...sheet.map(() => ''), '', omittedNote(listed, layout.excludedCount)];
}

/**
 * Streams every excluded row of an import as a CSV or XLSX attachment: the import's columns,
 * then (for a workbook of several sheets) sheet, then row_number and error.
 */
export async function sendErrorReport(
  res: Response,
  db: Kysely<Database>,
  taskUuid: string,
  layout: ReportLayout,
  format: ReportFormat,
  filenameBase: string,
): Promise<void> {
  const header = [...layout.columns, ...(layout.sheet ? ['sheet'] : []), 'row_number', 'error'];
  const rows = reportRows(db, taskUuid, layout);
  await sendTable(res, { filenameBase, format, sheetName: 'Excluded rows', header, rows, numberColumn: header.length - 2 });
}

/** The import template: the kind's columns and one example row, as CSV text (formulas neutralised like the reports). */
export function templateCsv(columns: readonly string[], example: Readonly<Record<string, string>>): string {
  return csvLines([columns.map(neutraliseFormula), columns.map((c) => neutraliseFormula(example[c] ?? ''))]);
}
