import { ImportInputError } from '../../errors.ts';
import type { SharedStrings } from './shared-strings.ts';
import { spells, XmlChunks } from './xml-chunks.ts';
import { isPlainText, xmlText } from './xml-text.ts';
import { notWorkbook } from './zip.ts';

/** A spreadsheet cell as the engine sees it: text, number, boolean, Date or empty. */
export type Cell = string | number | boolean | Date | null;

/** A sheet row with a value: its number in the sheet and its cells from column A (null: empty). */
export interface XlsxRow {
  number: number;
  cells: Cell[];
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
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const EQUALS = 0x3d;

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
    for (const { cells, column, index, row } of this.waiting) {
      const text = strings?.get(index);
      if (text === undefined) throw missingSharedString(row);
      cells[column - 1] = text;
    }
    this.waiting = [];
  }

  /** The complete rows read so far (each handed over once). */
  take(): XlsxRow[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
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
    } else if (this.inInline) this.inlineText = (this.inlineText ?? '') + xmlText(data.toString('utf8', start, end));
  }

  private openRow(data: Buffer, nameEnd: number, end: number, selfClosing: boolean): void {
    if (this.inRow) this.endRow();
    let number = 0;
    let style = 0;
    this.eachAttribute(data, nameEnd, end, (key, keyEnd, value, valueEnd) => {
      if (spells(data, key, keyEnd, 'r')) number = digits(data, value, valueEnd);
      else if (spells(data, key, keyEnd, 's')) style = Math.max(0, digits(data, value, valueEnd));
    });
    this.rowNumber = number > 0 ? number : this.rowNumber + 1;
    this.rowStyle = style;
    this.cells = [];
    this.column = 0;
    this.inRow = !selfClosing;
  }

  private openCell(data: Buffer, nameEnd: number, end: number, selfClosing: boolean): void {
    let column = 0;
    let type: CellType = CellType.Number;
    let style = 0;
    this.eachAttribute(data, nameEnd, end, (key, keyEnd, value, valueEnd) => {
      if (keyEnd - key !== 1) return;
      const letter = data[key];
      if (letter === 0x72) column = columnOf(data, value, valueEnd);
      else if (letter === 0x74) type = cellType(data, value, valueEnd);
      else if (letter === 0x73) style = Math.max(0, digits(data, value, valueEnd));
    });
    this.column = column > 0 ? column : this.column + 1;
    this.type = type;
    // A cell without a style of its own takes its row's (as exceljs does).
    this.style = style > 0 ? style : this.rowStyle;
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
    const cells = this.cells;
    while (cells.length < column - 1) cells.push(null);
    cells[column - 1] = cell;
  }

  private endRow(): void {
    if (!this.inRow) return;
    this.inRow = false;
    if (this.cells.length > 0) this.rows.push({ number: this.rowNumber, cells: this.cells });
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
        if (text !== undefined) return text;
        if (this.context.allStrings || index < 0) throw missingSharedString(this.rowNumber);
        this.waiting.push({ cells: this.cells, column: this.column, index, row: this.rowNumber });
        return '';
      }
      case CellType.InlineText:
      case CellType.FormulaText:
        return isPlainText(data, start, end) ? data.toString('utf8', start, end) : xmlText(data.toString('utf8', start, end));
      case CellType.Boolean:
        return digits(data, start, end) > 0;
      case CellType.Error:
        return data.toString('utf8', start, end);
      case CellType.IsoDate: {
        const text = data.toString('latin1', start, end);
        const date = new Date(text);
        return Number.isNaN(date.getTime()) ? text : date;
      }
      default: {
        const whole = digits(data, start, end);
        const number = whole >= 0 ? whole : Number.parseFloat(data.toString('latin1', start, end));
        if (Number.isNaN(number)) return data.toString('utf8', start, end);
        return this.context.dateStyles[this.style] === 1 ? excelDate(number, this.context.date1904) : number;
      }
    }
  }

  /** Calls `each` with the byte ranges of every attribute's name and value in a tag. */
  private eachAttribute(
    data: Buffer,
    from: number,
    end: number,
    each: (key: number, keyEnd: number, value: number, valueEnd: number) => void,
  ): void {
    let i = from;
    while (i < end) {
      while (i < end && (data[i] ?? 0) <= 0x20) i++;
      const key = i;
      while (i < end && data[i] !== EQUALS && (data[i] ?? 0) > 0x20 && data[i] !== 0x2f) i++;
      const keyEnd = i;
      while (i < end && data[i] !== EQUALS) {
        if (data[i] === 0x2f) return;
        i++;
      }
      i++;
      while (i < end && data[i] !== QUOTE && data[i] !== APOSTROPHE) i++;
      const quote = data[i];
      const value = ++i;
      while (i < end && data[i] !== quote) i++;
      if (keyEnd > key && i <= end) each(key, keyEnd, value, i);
      i++;
    }
  }
}

function missingSharedString(row: number): ImportInputError {
  return new ImportInputError(
    `Text cells of the workbook (row ${row}) refer to its shared strings, which the file does not hold. Open it in Excel or LibreOffice and save it again as .xlsx, or export it as CSV.`,
  );
}
