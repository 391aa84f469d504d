import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import Papa from 'papaparse';
import { neutraliseFormula } from './formula.ts';

export type TableFormat = 'csv' | 'xlsx';

const CSV_PAGE = 1000;

export interface Table {
  /** The attachment's name without its extension. */
  filenameBase: string;
  format: TableFormat;
  /** The worksheet's name in XLSX. */
  sheetName: string;
  header: readonly string[];
  rows: AsyncIterable<readonly string[]> | Iterable<readonly string[]>;
  /** A column whose cells are numbers in XLSX (row_number); CSV has no types. */
  numberColumn?: number;
}

/** CSV lines as Excel writes them: CRLF after every line, the last one too. */
export const csvLines = (lines: readonly (readonly string[])[]) => `${Papa.unparse(lines as string[][], { newline: '\r\n' })}\r\n`;

/** The CSV text (UTF-8 with a byte order mark, for Excel), a page of rows at a time; cells that would run as formulas are neutralised. */
export async function* csvChunks(
  header: readonly string[],
  rows: AsyncIterable<readonly string[]> | Iterable<readonly string[]>,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLines([header])}`;
  let lines: string[][] = [];
  for await (const row of rows) {
    lines.push(row.map(neutraliseFormula));
    if (lines.length >= CSV_PAGE) {
      yield csvLines(lines);
      lines = [];
    }
  }
  if (lines.length > 0) yield csvLines(lines);
}

/**
 * Streams a table as a CSV or XLSX attachment. In XLSX cells are written as text cells, which never
 * run. A client that goes away mid-download ends it at once: the pipeline rejects
 * (ERR_STREAM_PREMATURE_CLOSE) and stops reading rows.
 */
export async function sendTable(res: Response, table: Table): Promise<void> {
  res.status(200);
  res.setHeader('Content-Disposition', `attachment; filename="${table.filenameBase}.${table.format}"`);
  res.setHeader('Cache-Control', 'no-store');
  if (table.format === 'csv') {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    await pipeline(csvChunks(table.header, table.rows), res);
    return;
  }
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const { default: ExcelJS } = await import('exceljs');
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(table.sheetName);
  sheet.addRow([...table.header]).commit();
  // ExcelJS holds the workbook until commit: every row is read before the first byte is sent.
  for await (const row of table.rows) {
    if (res.destroyed) break;
    sheet.addRow(row.map((v, i) => (i === table.numberColumn && v !== '' ? Number(v) : v))).commit();
  }
  const sent = pipeline(output, res);
  if (res.destroyed) return sent; // the client went away: the pipeline ends at once (premature close)
  sheet.commit();
  await Promise.all([sent, workbook.commit()]);
}
