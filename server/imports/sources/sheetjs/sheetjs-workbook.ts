import fs from 'node:fs';
import type { CellObject, WorkBook, WorkSheet } from '@e965/xlsx';
import { ImportInputError } from '../../errors.ts';
import { describeLimit, type ImportLimits } from '../../limits.ts';
import { BATCH_TEXT_CHARS, type Cell, cellName, excelDate, isExcelDate, MAX_SHEET_ROWS, type XlsxRow } from '../xlsx/sheet-scanner.ts';
import { isDateFormat, type WorkbookSheet } from '../xlsx/workbook.ts';
import { unstorableCharacter } from '../xlsx/xml-text.ts';
import { loadSheetJs } from './load.ts';
import { checkOdsLimits } from './ods-limits.ts';
import { unreadable } from './unreadable.ts';
import { checkXlsLimits } from './xls-limits.ts';

export type SheetJsFormat = 'xls' | 'ods';

/** Rows handed on at once (or fewer, once they hold BATCH_TEXT_CHARS of text). */
const BATCH_ROWS = 2000;

/** Excel's error codes as SheetJS gives them (a number), as the cell shows them. */
const ERRORS: Record<number, string> = {
  0: '#NULL!',
  7: '#DIV/0!',
  15: '#VALUE!',
  23: '#REF!',
  29: '#NAME?',
  36: '#NUM!',
  42: '#N/A',
  43: '#GETTING_DATA',
};

/**
 * An .xls or .ods workbook read by SheetJS (@e965/xlsx), after the checks that bound what it
 * holds (xls-limits.ts, ods-limits.ts): SheetJS reads a whole workbook into memory, so these
 * formats have limits of their own (serve --max-xls-ods-cells, --max-xls-ods-mb) besides the
 * workbook limits .xlsx has (columns, cell and row text). It answers as the .xlsx reader does
 * (xlsx/workbook.ts): the sheets in order, and each sheet's rows with a value by the sheet's own
 * row number, each cell as the sheet shows it (text, number, boolean, error code, a
 * date-formatted number as a Date).
 */
export class SheetJsWorkbook {
  readonly sheets: WorkbookSheet[];
  /** How far `rows` has read the sheet (0 to 1), for progress. */
  fraction = 0;
  private readonly book: WorkBook;
  private readonly format: SheetJsFormat;
  private readonly limits: ImportLimits;
  private readonly date1904: boolean;

  private constructor(book: WorkBook, format: SheetJsFormat, limits: ImportLimits) {
    this.book = book;
    this.format = format;
    this.limits = limits;
    this.date1904 = Boolean(book.Workbook?.WBProps?.date1904);
    this.sheets = book.SheetNames.map((name, i) => ({
      name,
      position: i + 1,
      hidden: Boolean(book.Workbook?.Sheets?.[i]?.Hidden),
      part: sheetPart(i + 1),
    }));
  }

  /** Checks the file against the limits, then reads it whole; every problem is an ImportInputError that says what to do. */
  static async open(file: string, format: SheetJsFormat, limits: ImportLimits): Promise<SheetJsWorkbook> {
    let bytes: Buffer;
    if (format === 'xls') bytes = await checkXlsLimits(file, limits);
    else {
      await checkOdsLimits(file, limits);
      bytes = fs.readFileSync(file);
    }
    const XLSX = await loadSheetJs();
    let book: WorkBook;
    try {
      book = XLSX.read(bytes, {
        type: 'buffer',
        dense: true,
        cellDates: false,
        cellNF: true,
        cellText: false,
        cellFormula: false,
        cellHTML: false,
        cellStyles: false,
        bookVBA: false,
        WTF: false,
      });
    } catch (error) {
      if (/password-protected/i.test(String((error as Error)?.message ?? error))) throw passwordProtected(format);
      throw unreadable(format, error);
    }
    // SheetJS reads any zip it knows (an .xlsx, an .xlsb): the sniff found an OpenDocument file, and so must SheetJS.
    if (format === 'ods' && book.bookType !== 'ods') throw unreadable(format, new Error('its content is not an OpenDocument spreadsheet'));
    return new SheetJsWorkbook(book, format, limits);
  }

  /** Each sheet's rows holding a value, by its part (as checkWorkbookLimits counts an .xlsx's). */
  rowCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const sheet of this.sheets) {
      let rows = 0;
      for (const row of this.data(sheet)) if (row?.some(hasValue)) rows++;
      counts.set(sheet.part, rows);
    }
    return counts;
  }

  /**
   * The sheet's rows with a value, in batches, as the .xlsx reader gives them (Workbook.rows).
   * Cells beyond `maxColumns`, a cell longer than the cell limit and a row with more than
   * `maxRowChars` of text refuse the file. A whole read lets go of each row as it is handed on.
   */
  async *rows(sheet: WorkbookSheet, maxColumns: number, options: { head?: boolean; maxRowChars?: number } = {}): AsyncGenerator<XlsxRow[]> {
    const data = this.data(sheet);
    const maxRowChars = options.maxRowChars ?? this.limits.maxLineChars;
    if (data.length > MAX_SHEET_ROWS) throw this.invalid(sheet, `it has a row beyond row ${MAX_SHEET_ROWS.toLocaleString('en-US')}`);
    let batch: XlsxRow[] = [];
    let batchChars = 0;
    this.fraction = 0;
    for (let r = 0; r < data.length; r++) {
      const row = data[r];
      if (!row) continue;
      const read = this.row(sheet, row, r + 1, maxColumns, maxRowChars);
      if (!options.head) data[r] = undefined as unknown as CellObject[];
      if (read === null) continue;
      batch.push(read);
      batchChars += read.textChars;
      if (batch.length >= BATCH_ROWS || batchChars >= BATCH_TEXT_CHARS) {
        this.fraction = (r + 1) / data.length;
        yield batch;
        batch = [];
        batchChars = 0;
      }
    }
    this.fraction = 1;
    if (batch.length > 0) yield batch;
  }

  close(): void {}

  private data(sheet: WorkbookSheet): (CellObject[] | undefined)[] {
    const ws = this.book.Sheets[sheet.name] as WorkSheet | undefined;
    return (ws?.['!data'] as (CellObject[] | undefined)[] | undefined) ?? [];
  }

  /** One sheet row as the engine reads it, or null when it holds no value. */
  private row(sheet: WorkbookSheet, row: CellObject[], number: number, maxColumns: number, maxRowChars: number): XlsxRow | null {
    const cells: Cell[] = [];
    let textChars = 0;
    let last = -1;
    for (let c = 0; c < row.length; c++) {
      const cell = this.cell(sheet, row[c], c + 1, number);
      if (cell === null) continue;
      if (c + 1 > maxColumns) {
        throw new ImportInputError(
          `Row ${number.toLocaleString('en-US')} of the sheet "${sheet.name}" has a cell beyond column ${maxColumns.toLocaleString('en-US')}, the limit (serve --max-columns). Delete the far cells and import again.`,
        );
      }
      if (typeof cell === 'string') {
        textChars += cell.length;
        if (textChars > maxRowChars) {
          const limit = describeLimit({ ...this.limits, maxLineChars: maxRowChars }, 'maxLineChars');
          throw new ImportInputError(
            `Row ${number.toLocaleString('en-US')} of the sheet "${sheet.name}" holds more text than the limit of ${limit} for one row. Shorten its cells and import again.`,
          );
        }
      }
      while (cells.length < c) cells.push(null);
      cells[c] = cell;
      last = c;
    }
    return last < 0 ? null : { number, cells, textChars };
  }

  private cell(sheet: WorkbookSheet, cell: CellObject | undefined, column: number, row: number): Cell {
    if (!cell || cell.v === undefined || cell.v === null) return null;
    const where = `Cell ${cellName(column, row)} of the sheet "${sheet.name}"`;
    switch (cell.t) {
      case 's': {
        const text = String(cell.v);
        if (text.length > this.limits.maxCellChars) {
          throw new ImportInputError(
            `${where} is longer than the limit of ${describeLimit(this.limits, 'maxCellChars')}. Shorten it and import again.`,
          );
        }
        const unstorable = unstorableCharacter(text);
        if (unstorable !== null) {
          throw new ImportInputError(`${where} holds ${unstorable}, which cell text cannot hold. Retype that cell and import again.`);
        }
        return text;
      }
      case 'b':
        return Boolean(cell.v);
      case 'e':
        return ERRORS[Number(cell.v)] ?? '#N/A';
      case 'd':
        return cell.v instanceof Date ? cell.v : String(cell.v);
      case 'n': {
        const number = Number(cell.v);
        if (typeof cell.z !== 'string' || !isDateFormat(cell.z)) return number;
        if (!isExcelDate(number, this.date1904)) {
          throw new ImportInputError(
            `${where} holds ${number} in a date format, which is not a date a spreadsheet can show (its dates run from 1900 to 9999). Correct the date or give the cell a number format, and import again.`,
          );
        }
        return excelDate(number, this.date1904);
      }
      default:
        return null;
    }
  }

  private invalid(sheet: WorkbookSheet, why: string): ImportInputError {
    return unreadable(this.format, new Error(`its sheet "${sheet.name}": ${why}`));
  }
}

/** A SheetJS sheet's key among a workbook's counted parts. */
function sheetPart(position: number): string {
  return `sheet:${position}`;
}

function hasValue(cell: CellObject | undefined): boolean {
  return cell !== undefined && cell !== null && cell.v !== undefined && cell.v !== null && cell.t !== 'z';
}

function passwordProtected(format: SheetJsFormat): ImportInputError {
  const what = format === 'xls' ? 'Excel 97-2003 workbook (.xls)' : 'OpenDocument spreadsheet (.ods)';
  return new ImportInputError(
    `This ${what} is protected with a password (it is encrypted), so it cannot be read. Remove the password in the program that made it, save it again and upload that.`,
  );
}
