import { once } from 'node:events';
import type { Response } from 'express';
import type { Kysely } from 'kysely';
import Papa from 'papaparse';
import type { Database } from '../db/schema.ts';
import { excludedRowsPage } from './job-store.ts';

export type ReportFormat = 'csv' | 'xlsx';

const PAGE = 1000;

/** A CSV cell a spreadsheet would run as a formula gets a leading apostrophe. */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

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
  /** row_number = index + offset: 2 for files with a header row, 1 for JSON. */
  rowNumberOffset: number;
}

async function* reportRows(db: Kysely<Database>, taskUuid: string, layout: ReportLayout): AsyncGenerator<string[]> {
  let after = -1;
  for (;;) {
    const page = await excludedRowsPage(db, taskUuid, after, PAGE);
    if (page.length === 0) return;
    for (const row of page) {
      const cells = JSON.parse(row.cells) as unknown;
      const values = layout.rowsAreObjects
        ? layout.columns.map((c) => text(cells && typeof cells === 'object' && !Array.isArray(cells) ? (cells as Record<string, unknown>)[c] : undefined))
        : layout.columns.map((_c, i) => text(Array.isArray(cells) ? cells[i] : undefined));
      yield [...values, String(row.row_index + layout.rowNumberOffset), row.error];
    }
    after = page[page.length - 1]?.row_index ?? after;
  }
}

/**
 * Streams every excluded row of an import as a CSV or XLSX attachment: the import's columns,
 * then row_number and error. CSV cells that would run as formulas are neutralised (in XLSX
 * they are written as text cells, which never run).
 */
export async function sendErrorReport(
  res: Response,
  db: Kysely<Database>,
  taskUuid: string,
  layout: ReportLayout,
  format: ReportFormat,
  filenameBase: string,
): Promise<void> {
  const header = [...layout.columns, 'row_number', 'error'];
  res.status(200);
  res.setHeader('Content-Disposition', `attachment; filename="${filenameBase}.${format}"`);
  res.setHeader('Cache-Control', 'no-store');
  if (format === 'csv') {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    const write = async (chunk: string) => {
      if (!res.write(chunk)) await once(res, 'drain');
    };
    await write(`\uFEFF${Papa.unparse([header], { newline: '\r\n' })}\r\n`);
    let lines: string[][] = [];
    for await (const row of reportRows(db, taskUuid, layout)) {
      lines.push(row.map(neutraliseFormula));
      if (lines.length >= PAGE) {
        await write(`${Papa.unparse(lines, { newline: '\r\n' })}\r\n`);
        lines = [];
      }
    }
    if (lines.length > 0) await write(`${Papa.unparse(lines, { newline: '\r\n' })}\r\n`);
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Excluded rows');
  sheet.addRow(header).commit();
  const rowNumberAt = header.length - 2;
  for await (const row of reportRows(db, taskUuid, layout)) sheet.addRow(row.map((v, i) => (i === rowNumberAt ? Number(v) : v))).commit();
  sheet.commit();
  await workbook.commit();
}

/** The import template: the kind's columns and one example row, as CSV text. */
export function templateCsv(columns: readonly string[], example: Readonly<Record<string, string>>): string {
  return `${Papa.unparse([columns as string[], columns.map((c) => example[c] ?? '')], { newline: '\r\n' })}\r\n`;
}
