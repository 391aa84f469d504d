import fs from 'node:fs';
import { isBlankRow } from '../engine/columns.ts';
import { ImportInputError } from '../errors.ts';
import type { ImportLimits } from '../limits.ts';
import { asInputError, retryingLostSharedStrings, SharedStringsLost, workbookSheets, xlsxRowCells } from './xlsx.ts';
import { checkWorkbookLimits } from './zip-limits.ts';

/** Rows at the top of a sheet searched for its header row. */
export const HEAD_ROWS = 20;

export type Cells = (string | number | boolean | Date | null)[];

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
}

export interface ScanRequest {
  /** A sheet by name or 1-based position; absent: the first visible sheet whose head `matches`, else the first sheet. */
  sheet?: string | number;
  /** Read every row of every sheet to count them (the preview), or only what choosing needs (an import's intake). */
  countRows: boolean;
  /** Rows of the chosen sheet to keep, from row 1. */
  keepRows: number;
  /** Whether a sheet's first HEAD_ROWS rows hold a header of the kind's columns. */
  matches(head: Cells[]): boolean;
}

function describeSheets(sheets: ScannedSheet[]): string {
  return sheets.map((s) => `${s.position}. "${s.name}"`).join(', ');
}

/**
 * Streams a workbook once (exceljs WorkbookReader: never a whole sheet in memory): its sheets'
 * names, positions and row counts, and the first rows of the sheet an import reads.
 */
export async function scanWorkbook(file: string, limits: ImportLimits, request: ScanRequest): Promise<WorkbookScan> {
  const counted = await checkWorkbookLimits(file, limits);
  return retryingLostSharedStrings(() => scanOnce(file, limits, request, counted));
}

async function scanOnce(file: string, limits: ImportLimits, request: ScanRequest, counted: Map<string, number>): Promise<WorkbookScan> {
  const input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  const sheets: ScannedSheet[] = [];
  let first: { name: string; rows: Cells[] } | null = null;
  let chosen: { name: string; rows: Cells[] } | null = null;
  try {
    for await (const sheet of workbookSheets(input)) {
      const scanned: ScannedSheet = { name: sheet.name, position: sheet.position, hidden: sheet.hidden, rows: 0 };
      sheets.push(scanned);
      const named = request.sheet === undefined ? null : request.sheet === sheet.name || request.sheet === sheet.position;
      const candidate = named === true || (named === null && chosen === null && !sheet.hidden);
      const keep = candidate || first === null;
      const rows: Cells[] = [];
      let decided = !candidate;
      let picked = false;
      let count = 0;
      // Rows are counted while the limits are checked (zip-limits.ts); read here only when the part is not known.
      const known = sheet.part === null ? undefined : counted.get(sheet.part);
      const countHere = request.countRows && known === undefined;
      for await (const row of sheet.rows) {
        const cells = xlsxRowCells(row, limits);
        if (!decided && row.number > HEAD_ROWS) {
          decided = true;
          picked = named === true || request.matches(rows.slice(0, HEAD_ROWS));
        }
        if (keep && row.number <= request.keepRows) {
          while (rows.length < row.number - 1) rows.push([]);
          rows.push(cells);
        }
        if (!isBlankRow(cells)) count++;
        const needed = (keep && row.number < request.keepRows) || !decided;
        if (!countHere && !needed) break;
      }
      if (!decided) picked = named === true || request.matches(rows.slice(0, HEAD_ROWS));
      if (candidate && picked) chosen = { name: sheet.name, rows };
      scanned.rows = request.countRows ? (known ?? count) : null;
      if (first === null) first = { name: sheet.name, rows };
      if (!request.countRows && chosen !== null) break;
    }
  } catch (error) {
    throw error instanceof SharedStringsLost || error instanceof ImportInputError ? error : asInputError(error);
  } finally {
    input.destroy();
  }
  if (first === null) throw new ImportInputError('The workbook has no worksheet.');
  sheets.sort((a, b) => a.position - b.position);
  if (request.sheet !== undefined && chosen === null) {
    const wanted =
      typeof request.sheet === 'number' ? `no sheet ${request.sheet} (it has ${sheets.length})` : `no sheet named "${request.sheet}"`;
    const listed = ` Its sheets: ${describeSheets(sheets)}.`;
    throw new ImportInputError(`The workbook has ${wanted}.${listed} Send sheet as one of their names or positions.`, 'sheet');
  }
  return { sheets, chosen: chosen ?? first };
}
