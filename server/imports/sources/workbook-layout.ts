import { isBlankRow } from '../engine/columns.ts';
import { ImportInputError } from '../errors.ts';
import type { WorkbookFormat } from '../intake/sniff.ts';
import type { ImportLimits } from '../limits.ts';
import { openWorkbook, type SheetBook } from './open-workbook.ts';
import { asInputError } from './workbook-source.ts';
import type { Cell } from './xlsx/sheet-scanner.ts';

/** Rows at the top of a sheet searched for its header row. */
export const HEAD_ROWS = 20;

export type Cells = Cell[];

export interface ScannedSheet {
  name: string;
  /** 1-based position among the workbook's sheets. */
  position: number;
  hidden: boolean;
  /** Rows with a value (null when not counted). */
  rows: number | null;
}

export interface WorkbookScan {
  /** Every sheet, in the workbook's order. */
  sheets: ScannedSheet[];
  /** The sheet chosen, and its first rows by row number (rows[0] is row 1; a row the sheet leaves out is empty). */
  chosen: { name: string; rows: Cells[] };
  /** The sheets read whose first rows hold a value, in order (every visible sheet when none matched). */
  filled: string[];
}

export interface ScanRequest {
  /** A sheet by name or 1-based position; absent: the first visible sheet whose head `matches`, else the first sheet. */
  sheet?: string | number;
  /** Count every sheet's rows (the preview), or only choose (an import's intake). */
  countRows: boolean;
  /** Rows of the chosen sheet to keep, from row 1. */
  keepRows: number;
  /** Whether a sheet's first HEAD_ROWS rows hold a header of the kind's columns. */
  matches(head: Cells[]): boolean;
}

function describeSheets(sheets: ScannedSheet[]): string {
  return sheets.map((s) => `${s.position}. "${s.name}"`).join(', ');
}

/** A sheet's rows from row 1 up to row `last` (rows[0] is row 1; a row the sheet leaves out is empty). */
async function headOf(workbook: SheetBook, sheet: SheetBook['sheets'][number], last: number, limits: ImportLimits): Promise<Cells[]> {
  const rows: Cells[] = [];
  for await (const batch of workbook.rows(sheet, limits.maxColumns, { head: true, maxRowChars: limits.maxLineChars })) {
    for (const row of batch) {
      if (row.number > last) return rows;
      while (rows.length < row.number - 1) rows.push([]);
      rows.push(row.cells);
    }
  }
  return rows;
}

/**
 * A workbook's sheets (names, positions, visibility; with countRows, the rows holding a value,
 * counted while the limits are checked) and the first rows of the sheet an import reads. Only
 * the head of a sheet is read: never a whole sheet in memory.
 */
export async function scanWorkbook(
  file: string,
  limits: ImportLimits,
  request: ScanRequest,
  format: WorkbookFormat = 'xlsx',
): Promise<WorkbookScan> {
  let workbook: SheetBook | undefined;
  const sheets: ScannedSheet[] = [];
  let first: { name: string; rows: Cells[] } | null = null;
  let chosen: { name: string; rows: Cells[] } | null = null;
  const filled: string[] = [];
  try {
    const opened = await openWorkbook(file, format, limits);
    workbook = opened.book;
    const counted = opened.rowCounts;
    for (const sheet of workbook.sheets) {
      sheets.push({
        name: sheet.name,
        position: sheet.position,
        hidden: sheet.hidden,
        rows: request.countRows ? (counted.get(sheet.part) ?? 0) : null,
      });
      const named = request.sheet === undefined ? null : request.sheet === sheet.name || request.sheet === sheet.position;
      const candidate = named === true || (named === null && chosen === null && !sheet.hidden);
      if (!candidate && first !== null) continue;
      const rows = await headOf(workbook, sheet, Math.max(HEAD_ROWS, request.keepRows), limits);
      if (rows.some((row) => !isBlankRow(row))) filled.push(sheet.name);
      const kept = rows.slice(0, request.keepRows);
      if (first === null) first = { name: sheet.name, rows: kept };
      if (candidate && (named === true || request.matches(rows.slice(0, HEAD_ROWS)))) chosen = { name: sheet.name, rows: kept };
    }
  } catch (error) {
    throw asInputError(error, format);
  } finally {
    workbook?.close();
  }
  if (first === null) throw new ImportInputError('The workbook has no worksheet.');
  if (request.sheet !== undefined && chosen === null) {
    const wanted =
      typeof request.sheet === 'number' ? `no sheet ${request.sheet} (it has ${sheets.length})` : `no sheet named "${request.sheet}"`;
    const listed = ` Its sheets: ${describeSheets(sheets)}.`;
    throw new ImportInputError(`The workbook has ${wanted}.${listed} Send sheet as one of their names or positions.`, 'sheet');
  }
  return { sheets, chosen: chosen ?? first, filled };
}
