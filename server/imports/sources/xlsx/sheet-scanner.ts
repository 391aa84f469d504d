import { ImportInputError } from '../../errors.ts';
import { DEFAULT_IMPORT_LIMITS, describeLimit } from '../../limits.ts';
import type { SharedStrings } from './shared-strings.ts';
import { eachAttribute, spells, XmlChunks } from './xml-chunks.ts';
import { isPlainText, NOT_UTF8, unstorableCell, unstorableCharacter, utf8Text, xmlText } from './xml-text.ts';
import { notWorkbook } from './zip.ts';

/** A spreadsheet cell as the engine sees it: text, number, boolean, Date or empty. */
export type Cell = string | number | boolean | Date | null;

/** A sheet row with a value: its number in the sheet and its cells from column A (null: empty). */
export interface XlsxRow {
  number: number;
  cells: Cell[];
  /** Characters of its text cells together (a shared text counted in each cell). */
  textChars: number;
}

/** What reading a sheet's cells needs from the rest of the workbook. */
export interface SheetContext {
  strings: SharedStrings | null;
  /** Whether `strings` holds every shared string (else a cell beyond them waits for `resolve`). */
  allStrings: boolean;
  /** 1 at the index of each cell style whose number format is a date or time. */
  dateStyles: Uint8Array;
  date1904: boolean;
  /** Cells beyond this column refuse the file (serve --max-columns). */
  maxColumns: number;
  /** A row whose text cells hold more characters refuses the file (serve --max-line-kb, as a CSV record). */
  maxRowChars: number;
}

/** Excel's last row. */
export const MAX_SHEET_ROWS = 1_048_576;
/** Excel's last date, 9999-12-31, as a serial day number of the 1900 date system (the 1904 system's is 1,462 less). */
const LAST_DATE_SERIAL = 2_958_465;
/**
 * Characters of text a batch of rows (take()) holds at most, beyond one row: the scanner pauses
 * after the row that reaches it, so a sheet whose cells all point at one long shared string
 * (each handed on as the same string, but each counted) comes in bounded batches.
 */
export const BATCH_TEXT_CHARS = 16 * 1024 * 1024;

/** A cell's name as Excel shows it ("BC12"). */
export function cellName(column: number, row: number): string {
  let letters = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row.toLocaleString('en-US', { useGrouping: false })}`;
}

/** A row reference as a number: digits of any length (a number too long to be a row is still a number), NaN otherwise. */
function rowReference(data: Buffer, start: number, end: number): number {
  const whole = digits(data, start, end);
  if (whole >= 0) return whole;
  const text = data.toString('latin1', start, end);
  return /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
}

const CellType = { Number: 0, Shared: 1, InlineText: 2, FormulaText: 3, Boolean: 4, Error: 5, IsoDate: 6 } as const;
type CellType = (typeof CellType)[keyof typeof CellType];

function cellType(data: Buffer, start: number, end: number): CellType {
  if (spells(data, start, end, 's')) return CellType.Shared;
  if (spells(data, start, end, 'str')) return CellType.FormulaText;
  if (spells(data, start, end, 'inlineStr')) return CellType.InlineText;
  if (spells(data, start, end, 'b')) return CellType.Boolean;
  if (spells(data, start, end, 'e')) return CellType.Error;
  if (spells(data, start, end, 'd')) return CellType.IsoDate;
  return CellType.Number;
}

/** A whole number written in ASCII digits, or -1 when the bytes are not one. */
function digits(data: Buffer, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = (data[i] ?? 0) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The column number (A = 1) of a cell reference such as "BC12", or 0 when it has no letters. */
function columnOf(data: Buffer, start: number, end: number): number {
  let column = 0;
  for (let i = start; i < end; i++) {
    const byte = (data[i] ?? 0) | 0x20;
    if (byte < 0x61 || byte > 0x7a) break;
    column = column * 26 + (byte - 0x60);
  }
  return column;
}

/** Excel's serial day number as a Date (1900 or 1904 date system), rounded to the millisecond. */
export function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

/** Whether Excel shows the serial day number as a date (else it fills the cell with ####). */
export function isExcelDate(serial: number, date1904: boolean): boolean {
  return serial >= 0 && serial < LAST_DATE_SERIAL + 1 - (date1904 ? 1462 : 0);
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const LOCAL_TIME = /^T?(\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/;

/**
 * An ISO 8601 date cell (t="d") as the wall-clock time the cell shows, the way date-formatted
 * numbers are read (as UTC): a time without an offset is not the server's local time.
 */
function isoDate(text: string): Date | null {
  const time = LOCAL_TIME.exec(text)?.[1];
  const iso = time !== undefined ? `1899-12-30T${time}Z` : LOCAL_DATE_TIME.test(text) ? `${text}Z` : text;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Reads a worksheet's XML as it streams (`push` each inflated chunk, then `finish`) and hands
 * back its rows with a value, each cell converted as Excel shows it: shared and inline strings,
 * numbers, booleans, error codes, and date-formatted numbers as Dates. A formula cell gives the
 * value Excel saved with it. Rows and cells without their `r` reference take the next place.
 */
export class SheetScanner extends XmlChunks {
  private readonly context: SheetContext;
  private rows: XlsxRow[] = [];
  private rowNumber = 0;
  private cells: Cell[] = [];
  private inRow = false;
  private inCell = false;
  private column = 0;
  private type: CellType = CellType.Number;
  private style = 0;
  private rowStyle = 0;
  private rowChars = 0;
  private batchChars = 0;
  private inValue = false;
  private inInline = false;
  private inPhonetic = false;
  /** The cell's value text: raw bytes in place, or decoded text once it needed more. */
  private value: { data: Buffer; start: number; end: number } | null = null;
  private inlineText: string | null = null;
  private sheetDataEnded = false;
  /** Shared-string cells read before their string was: filled in by `resolve`. */
  private waiting: { cells: Cell[]; column: number; index: number; row: number }[] = [];

  constructor(context: SheetContext) {
    super();
    this.context = context;
  }

  /** The highest shared string index a cell waits for, or -1. */
  get waitingFor(): number {
    let highest = -1;
    for (const cell of this.waiting) highest = Math.max(highest, cell.index);
    return highest;
  }

  /** Fills in the cells that waited for shared strings `strings` now holds (or refuses the file: they are not there). */
  resolve(strings: SharedStrings | null): void {
    let row = 0;
    for (const cell of this.waiting) {
      const text = strings?.get(cell.index);
      if (text === undefined) throw missingSharedString(cell.row);
      const unstorable = strings?.unstorable(cell.index);
      if (unstorable) throw this.unstorable(unstorable, cell.column, cell.row);
      if (cell.row !== row) {
        row = cell.row;
        this.rowChars = 0;
      }
      this.countText(text.length, row);
      cell.cells[cell.column - 1] = text;
    }
    this.waiting = [];
  }

  /** The complete rows read so far (each handed over once). */
  take(): XlsxRow[] {
    const rows = this.rows;
    this.rows = [];
    this.batchChars = 0;
    return rows;
  }

  /** Whether the scanner paused with a full batch: take() it, then resume(). */
  get full(): boolean {
    return this.paused;
  }

  end(): XlsxRow[] {
    this.finish('the sheet');
    if (!this.sheetDataEnded) throw notWorkbook('its sheet is cut short or damaged (its XML never closes the rows)');
    return this.take();
  }

  protected open(data: Buffer, name: number, nameEnd: number, end: number, selfClosing: boolean): void {
    const length = nameEnd - name;
    const first = data[name];
    if (length === 1 && first === 0x63) this.openCell(data, nameEnd, end, selfClosing);
    else if (length === 1 && first === 0x76) this.startValue(selfClosing);
    else if (length === 1 && first === 0x74) {
      if (this.inInline && !this.inPhonetic) this.capturing = !selfClosing;
    } else if (length === 2 && spells(data, name, nameEnd, 'is')) {
      this.inInline = !selfClosing;
      this.inlineText ??= '';
    } else if (length === 3 && spells(data, name, nameEnd, 'row')) this.openRow(data, nameEnd, end, selfClosing);
    else if (length === 3 && spells(data, name, nameEnd, 'rPh')) this.inPhonetic = !selfClosing;
    else if (length === 9 && spells(data, name, nameEnd, 'sheetData') && selfClosing) this.sheetDataEnded = true;
  }

  protected close(data: Buffer, name: number, nameEnd: number): void {
    const length = nameEnd - name;
    const first = data[name];
    if (length === 1 && first === 0x63) this.endCell();
    else if (length === 1 && (first === 0x76 || first === 0x74)) {
      this.capturing = false;
      this.inValue = false;
    } else if (length === 2 && spells(data, name, nameEnd, 'is')) this.inInline = false;
    else if (length === 3 && spells(data, name, nameEnd, 'row')) this.endRow();
    else if (length === 3 && spells(data, name, nameEnd, 'rPh')) this.inPhonetic = false;
    else if (length === 9 && spells(data, name, nameEnd, 'sheetData')) this.sheetDataEnded = true;
  }

  protected text(data: Buffer, start: number, end: number): void {
    if (this.inValue) {
      // A value in more than one run (split by a comment) is joined: rare, so a copy is fine.
      const before = this.value;
      const joined = before === null ? null : Buffer.concat([before.data.subarray(before.start, before.end), data.subarray(start, end)]);
      this.value = joined === null ? { data, start, end } : { data: joined, start: 0, end: joined.length };
    } else if (this.inInline) this.inlineText = (this.inlineText ?? '') + this.cellText(this.utf8(data, start, end));
  }

  private openRow(data: Buffer, nameEnd: number, end: number, selfClosing: boolean): void {
    if (this.inRow) this.endRow();
    let number = 0;
    let style = 0;
    let customFormat = false;
    eachAttribute(data, nameEnd, end, (key, keyEnd, value, valueEnd) => {
      if (spells(data, key, keyEnd, 'r')) number = rowReference(data, value, valueEnd);
      else if (spells(data, key, keyEnd, 's')) style = Math.max(0, digits(data, value, valueEnd));
      else if (spells(data, key, keyEnd, 'customFormat'))
        customFormat = spells(data, value, valueEnd, '1') || spells(data, value, valueEnd, 'true');
    });
    this.rowNumber = number > 0 ? number : this.rowNumber + 1;
    if (this.rowNumber > MAX_SHEET_ROWS) {
      throw new ImportInputError(
        `Row ${this.rowNumber.toLocaleString('en-US')} of the worksheet is beyond row ${MAX_SHEET_ROWS.toLocaleString('en-US')}, the last row Excel has: the file is damaged or was not written by a spreadsheet. Open it in Excel or LibreOffice and save it again as .xlsx, or export it as CSV.`,
      );
    }
    // A row's style is its cells' only when the row says so (customFormat), as Excel shows it.
    this.rowStyle = customFormat ? style : 0;
    this.rowChars = 0;
    this.cells = [];
    this.column = 0;
    this.inRow = !selfClosing;
  }

  private openCell(data: Buffer, nameEnd: number, end: number, selfClosing: boolean): void {
    let column = 0;
    let type: CellType = CellType.Number;
    let style = -1;
    eachAttribute(data, nameEnd, end, (key, keyEnd, value, valueEnd) => {
      if (keyEnd - key !== 1) return;
      const letter = data[key];
      if (letter === 0x72) column = columnOf(data, value, valueEnd);
      else if (letter === 0x74) type = cellType(data, value, valueEnd);
      else if (letter === 0x73) style = Math.max(0, digits(data, value, valueEnd));
    });
    this.column = column > 0 ? column : this.column + 1;
    this.type = type;
    // A cell without a style of its own takes its row's; s="0" is a style of its own.
    this.style = style >= 0 ? style : this.rowStyle;
    this.value = null;
    this.inlineText = null;
    this.inCell = !selfClosing;
  }

  private startValue(selfClosing: boolean): void {
    if (!this.inCell) return;
    this.inValue = !selfClosing;
    this.capturing = !selfClosing;
  }

  private endCell(): void {
    if (!this.inCell) return;
    this.inCell = false;
    this.capturing = false;
    this.inValue = false;
    this.inInline = false;
    const cell = this.cellValue();
    if (cell === null) return;
    const column = this.column;
    if (column > this.context.maxColumns) {
      throw new ImportInputError(
        `Row ${this.rowNumber} of the worksheet has a cell beyond column ${this.context.maxColumns.toLocaleString('en-US')}, the limit (serve --max-columns). Delete the far cells and import again.`,
      );
    }
    if (typeof cell === 'string') this.countText(cell.length);
    const cells = this.cells;
    while (cells.length < column - 1) cells.push(null);
    cells[column - 1] = cell;
  }

  private countText(chars: number, row = this.rowNumber): void {
    this.rowChars += chars;
    this.batchChars += chars;
    if (this.rowChars > this.context.maxRowChars) {
      const limit = describeLimit({ ...DEFAULT_IMPORT_LIMITS, maxLineChars: this.context.maxRowChars }, 'maxLineChars');
      throw new ImportInputError(
        `Row ${row.toLocaleString('en-US')} of the worksheet holds more text than the limit of ${limit} for one row. Shorten its cells and import again.`,
      );
    }
  }

  private endRow(): void {
    if (!this.inRow) return;
    this.inRow = false;
    if (this.cells.length > 0) this.rows.push({ number: this.rowNumber, cells: this.cells, textChars: this.rowChars });
    if (this.batchChars >= BATCH_TEXT_CHARS) this.paused = true;
  }

  /** The cell's text, refused when it holds what stored text cannot: a NUL or a broken character. */
  private cellText(raw: string): string {
    const text = xmlText(raw);
    const unstorable = unstorableCharacter(text);
    if (unstorable !== null) throw this.unstorable(unstorable);
    return text;
  }

  /** The bytes as UTF-8 text, refused when they are not UTF-8. */
  private utf8(data: Buffer, start: number, end: number): string {
    const text = utf8Text(data, start, end);
    if (text === null) throw this.unstorable(NOT_UTF8);
    return text;
  }

  private unstorable(what: string, column = this.column, row = this.rowNumber): ImportInputError {
    return unstorableCell(`Cell ${cellName(column, row)} of the worksheet`, what, 'Retype that cell in Excel and import again.');
  }

  private cellValue(): Cell {
    if (this.inlineText !== null && this.value === null) return this.inlineText;
    const value = this.value;
    if (value === null) return null;
    const { data, start, end } = value;
    switch (this.type) {
      case CellType.Shared: {
        const index = digits(data, start, end);
        const text = this.context.strings?.get(index);
        if (text !== undefined) {
          const unstorable = this.context.strings?.unstorable(index);
          if (unstorable) throw this.unstorable(unstorable);
          return text;
        }
        if (this.context.allStrings || index < 0) throw missingSharedString(this.rowNumber);
        this.waiting.push({ cells: this.cells, column: this.column, index, row: this.rowNumber });
        return '';
      }
      case CellType.InlineText:
      case CellType.FormulaText:
        return isPlainText(data, start, end) ? this.utf8(data, start, end) : this.cellText(this.utf8(data, start, end));
      case CellType.Boolean:
        return digits(data, start, end) > 0;
      case CellType.Error:
        return this.utf8(data, start, end);
      case CellType.IsoDate: {
        const text = data.toString('latin1', start, end);
        return isoDate(text) ?? text;
      }
      default: {
        const whole = digits(data, start, end);
        const number = whole >= 0 ? whole : Number.parseFloat(data.toString('latin1', start, end));
        if (Number.isNaN(number)) return this.utf8(data, start, end);
        if (this.context.dateStyles[this.style] !== 1) return number;
        if (!isExcelDate(number, this.context.date1904)) {
          throw new ImportInputError(
            `Cell ${cellName(this.column, this.rowNumber)} of the worksheet holds ${number} in a date format, which is not a date Excel can show (it shows ####; its dates run from 1900 to 9999). Correct the date or give the cell a number format, and import again.`,
          );
        }
        return excelDate(number, this.context.date1904);
      }
    }
  }
}

function missingSharedString(row: number): ImportInputError {
  return new ImportInputError(
    `Text cells of the workbook (row ${row}) refer to its shared strings, which the file does not hold. Open it in Excel or LibreOffice and save it again as .xlsx, or export it as CSV.`,
  );
}
