import type { ImportLimits } from '../limits.ts';
import type { WorkbookFormat } from '../intake/sniff.ts';
import { SheetJsWorkbook } from './sheetjs/sheetjs-workbook.ts';
import type { XlsxRow } from './xlsx/sheet-scanner.ts';
import { Workbook, type WorkbookSheet } from './xlsx/workbook.ts';
import { checkWorkbookLimits } from './zip-limits.ts';

/** A workbook as the import reads it, whatever its format: its sheets, and a sheet's rows with a value by their row number. */
export interface SheetBook {
  readonly sheets: WorkbookSheet[];
  /** How far `rows` has read its sheet, 0 to 1. */
  readonly fraction: number;
  /** A sheet's rows with a value, in batches; `head`: only the first rows will be read. */
  rows(sheet: WorkbookSheet, maxColumns: number, options?: { head?: boolean; maxRowChars?: number }): AsyncGenerator<XlsxRow[]>;
  close(): void;
}

/**
 * Opens a workbook after checking it against the limits, and counts each sheet's rows holding a
 * value (by the sheet's part): an .xlsx streamed by our reader (xlsx/), its parts checked as they
 * unpack; an .xls or .ods read whole by SheetJS (sheetjs/), after the checks that bound it.
 */
export async function openWorkbook(
  file: string,
  format: WorkbookFormat,
  limits: ImportLimits,
): Promise<{ book: SheetBook; rowCounts: Map<string, number> }> {
  if (format === 'xlsx') {
    const rowCounts = await checkWorkbookLimits(file, limits);
    return { book: Workbook.open(file), rowCounts };
  }
  const book = await SheetJsWorkbook.open(file, format, limits);
  return { book, rowCounts: book.rowCounts() };
}
