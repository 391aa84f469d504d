/**
 * A child process that has SheetJS read one .xls or .ods (the checked bytes sheetjs-workbook.ts
 * sends it) and converts every sheet to the rows an import reads, with the workbook limits
 * checked, then exits. It runs apart because SheetJS reads past a damaged record and may never
 * end, or fill its memory as it loops: the process is ended at its deadline, and running out of
 * memory ends only it (which V8 cannot promise of a thread).
 */
import type { CellObject, ParsingOptions, WorkBook, WorkSheet } from '@e965/xlsx';
import { describeError, ImportInputError } from '../../errors.ts';
import { describeLimit, type ImportLimits } from '../../limits.ts';
import { type Cell, cellName, excelDate, isExcelDate, MAX_SHEET_ROWS, type XlsxRow } from '../xlsx/sheet-scanner.ts';
import { isDateFormat } from '../xlsx/workbook.ts';
import { unstorableCell, unstorableCharacter, unstorableSheetName, xmlEntities } from '../xlsx/xml-text.ts';
import { loadSheetJs } from './load.ts';
import { readOds } from './read-ods.ts';

export interface SheetJsRequest {
  bytes: Uint8Array;
  format: 'xls' | 'ods';
  limits: ImportLimits;
}

/** One sheet as read: its name, whether it is hidden, and its rows with a value by row number. */
export interface ReadSheet {
  name: string;
  hidden: boolean;
  rows: XlsxRow[];
}

export type SheetJsAnswer = { sheets: ReadSheet[] } | { error: string; input: boolean; password?: boolean; field?: string };

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

/** Reads one sheet's rows as the .xlsx reader gives them: a row with no value is left out. */
class SheetRows {
  private readonly name: string;
  private readonly limits: ImportLimits;
  private readonly date1904: boolean;

  constructor(name: string, limits: ImportLimits, date1904: boolean) {
    this.name = name;
    this.limits = limits;
    this.date1904 = date1904;
  }

  read(sheet: WorkSheet | undefined): XlsxRow[] {
    const data = (sheet?.['!data'] as (CellObject[] | undefined)[] | undefined) ?? [];
    if (data.length > MAX_SHEET_ROWS) {
      throw new Error(`its sheet "${this.name}" has a row beyond row ${MAX_SHEET_ROWS.toLocaleString('en-US')}`);
    }
    const rows: XlsxRow[] = [];
    for (let r = 0; r < data.length; r++) {
      const row = data[r];
      if (!row) continue;
      const read = this.row(row, r + 1);
      // Each row is let go of as it is read: the workbook and its rows are not held twice.
      data[r] = undefined;
      if (read) rows.push(read);
    }
    return rows;
  }

  private row(row: CellObject[], number: number): XlsxRow | null {
    const cells: Cell[] = [];
    let textChars = 0;
    let last = -1;
    for (let c = 0; c < row.length; c++) {
      const cell = this.cell(row[c], c + 1, number);
      if (cell === null) continue;
      if (c + 1 > this.limits.maxColumns) {
        throw new ImportInputError(
          `Row ${number.toLocaleString('en-US')} of the sheet "${this.name}" has a cell beyond column ${this.limits.maxColumns.toLocaleString('en-US')}, the limit (serve --max-columns). Delete the far cells and import again.`,
        );
      }
      if (typeof cell === 'string') {
        textChars += cell.length;
        if (textChars > this.limits.maxLineChars) {
          throw new ImportInputError(
            `Row ${number.toLocaleString('en-US')} of the sheet "${this.name}" holds more text than the limit of ${describeLimit(this.limits, 'maxLineChars')} for one row. Shorten its cells and import again.`,
          );
        }
      }
      while (cells.length < c) cells.push(null);
      cells[c] = cell;
      last = c;
    }
    return last < 0 ? null : { number, cells, textChars };
  }

  private cell(cell: CellObject | undefined, column: number, row: number): Cell {
    if (!cell || cell.v === undefined || cell.v === null) return null;
    const where = () => `Cell ${cellName(column, row)} of the sheet "${this.name}"`;
    switch (cell.t) {
      case 's': {
        const text = String(cell.v);
        if (text.length > this.limits.maxCellChars) {
          throw new ImportInputError(
            `${where()} is longer than the limit of ${describeLimit(this.limits, 'maxCellChars')}. Shorten it and import again.`,
          );
        }
        const unstorable = unstorableCharacter(text);
        if (unstorable !== null) throw unstorableCell(where(), unstorable, 'Retype that cell and import again.');
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
            `${where()} holds ${number} in a date format, which is not a date a spreadsheet can show (its dates run from 1900 to 9999). Correct the date or give the cell a number format, and import again.`,
          );
        }
        return excelDate(number, this.date1904);
      }
      default:
        return null;
    }
  }
}

const READ_OPTIONS: ParsingOptions = {
  type: 'buffer',
  dense: true,
  cellDates: false,
  cellNF: true,
  cellText: false,
  cellFormula: false,
  cellHTML: false,
  cellStyles: false,
  bookVBA: false,
};

async function readBook(data: SheetJsRequest): Promise<SheetJsAnswer> {
  const XLSX = await loadSheetJs();
  let book: WorkBook;
  try {
    book = data.format === 'ods' ? readOds(XLSX, data.bytes, READ_OPTIONS) : XLSX.read(data.bytes, READ_OPTIONS);
  } catch (error) {
    const message = describeError(error);
    return { error: message, input: false, password: /password-protected/i.test(message) };
  }
  // SheetJS reads any zip it knows (an .xlsx, an .xlsb): the sniff found an OpenDocument file, and so must SheetJS.
  if (data.format === 'ods' && book.bookType !== 'ods') return { error: 'its content is not an OpenDocument spreadsheet', input: false };
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  const names = book.SheetNames.map((key, i) => sheetName(key, i + 1, data.format));
  const sheets = book.SheetNames.map((key, i) => ({
    name: names[i] as string,
    hidden: Boolean(book.Workbook?.Sheets?.[i]?.Hidden),
    rows: new SheetRows(names[i] as string, data.limits, date1904).read(book.Sheets[key]),
  }));
  return { sheets };
}

/**
 * A sheet's name as its program shows it, refused when it holds what stored text cannot (an .xls
 * holds any UTF-16). SheetJS leaves an .ods name as its XML spells it ("R&amp;D"): resolved here.
 */
function sheetName(key: string, position: number, format: SheetJsRequest['format']): string {
  const name = format === 'ods' ? xmlEntities(key) : key;
  const unstorable = unstorableCharacter(name);
  if (unstorable !== null) throw unstorableSheetName(position, unstorable);
  return name;
}

process.once('message', (request: SheetJsRequest) => {
  void readBook({ ...request, bytes: Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength) })
    .catch(
      (error: unknown): SheetJsAnswer =>
        error instanceof ImportInputError
          ? { error: error.message, input: true, field: error.field }
          : { error: describeError(error), input: false },
    )
    .then((answer) => process.send?.(answer, () => process.disconnect()));
});
