import fs from 'node:fs';
import { isBlankRow } from '../engine/columns.ts';
import { describeError, ImportInputError } from '../errors.ts';
import type { ImportLimits } from '../limits.ts';
import type { RowHandlers, RowSource } from './source.ts';
import { checkWorkbookLimits } from './zip-limits.ts';

const CHUNK_ROWS = 2000;

/** Reads of a workbook tried before its shared strings are given up as lost. */
const READ_ATTEMPTS = 3;

/**
 * exceljs's streaming reader can end its pass over the zip before the shared strings part, which
 * Excel and LibreOffice store after the sheet; its cells then hold `{ sharedString: n }` instead of
 * their text (exceljs issues #683, #3064). Thrown rather than stored as "[object Object]".
 */
export class SharedStringsLost extends Error {}

function lostSharedStrings(): ImportInputError {
  return new ImportInputError(
    'The text cells of the workbook could not be read: they refer to its shared strings, which the reader did not find. Import it again; if it happens again, open it in Excel or LibreOffice and save it again as .xlsx, or export it as CSV.',
  );
}

/** A spreadsheet cell as the engine sees it: text, number, boolean, Date or empty. */
export function cellValue(value: unknown): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.sharedString === 'number') throw new SharedStringsLost();
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((part) => part.text ?? '').join('');
    if ('result' in v) return cellValue(v.result);
    if ('formula' in v || 'sharedFormula' in v) return null;
    if (typeof v.text === 'string') return v.text;
    if (typeof v.error === 'string') return v.error;
  }
  return String(value);
}

function rowCells(values: unknown, row: number, limits: ImportLimits): (string | number | boolean | Date | null)[] {
  if (!Array.isArray(values)) return [];
  if (values.length - 1 > limits.maxColumns) {
    throw new ImportInputError(
      `Row ${row} of the worksheet has a cell beyond column ${limits.maxColumns.toLocaleString('en-US')}, the limit (serve --max-columns). Delete the far cells and import again.`,
    );
  }
  const cells: (string | number | boolean | Date | null)[] = [];
  for (let i = 1; i < values.length; i++) cells.push(cellValue(values[i]));
  return cells;
}

/** Runs a whole read again, up to READ_ATTEMPTS times, while it loses the shared strings (SharedStringsLost). */
export async function retryingLostSharedStrings<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof SharedStringsLost)) throw error;
      if (attempt >= READ_ATTEMPTS) throw lostSharedStrings();
    }
  }
}

export function asInputError(error: unknown): Error {
  if (error instanceof ImportInputError) return error;
  if (error instanceof SharedStringsLost) return lostSharedStrings();
  return new ImportInputError(
    `The file could not be read as an Excel workbook (.xlsx): ${describeError(error)}. Open it in Excel and save it again as .xlsx, or export it as CSV.`,
  );
}

interface XlsxRow {
  number: number;
  values: unknown;
}

/** A worksheet as the streaming reader hands it over: its name, position among the sheets (1-based), visibility and rows. */
export interface XlsxSheet {
  name: string;
  position: number;
  hidden: boolean;
  /** Its part in the zip ("xl/worksheets/sheet2.xml"), when the workbook says. */
  part: string | null;
  rows: AsyncIterable<XlsxRow>;
}

/**
 * exceljs is large: it is loaded only when a workbook is read. Sheets come in the order the workbook stores them.
 * A sheet the caller skips without reading is safe: when exceljs parked it in a temp file (the
 * workbook's parts came after it), it deletes that file before the sheet's stream opens, and the
 * stream's ENOENT would otherwise end the process as an unhandled 'error' event.
 */
export async function* workbookSheets(input: fs.ReadStream): AsyncGenerator<XlsxSheet> {
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const parts = () => reader as unknown as WorkbookParts;
  let emitted = 0;
  for await (const sheet of reader) {
    const found = sheet as unknown as { name?: string; state?: string; iterator?: { on?: (event: 'error', listener: () => void) => void } };
    found.iterator?.on?.('error', () => {});
    const { model, workbookRels } = parts();
    // A pass that ended before the workbook's own parts (exceljs issues #683, #3064) knows no sheet names: read it again.
    if (!model?.sheets || !workbookRels) throw new SharedStringsLost();
    const index = model.sheets.findIndex((s) => s.name === found.name);
    const rId = model.sheets[index]?.rId;
    const target = workbookRels?.find((rel) => rel.Id === rId)?.Target;
    emitted++;
    yield {
      name: found.name ?? `Sheet${emitted}`,
      position: index >= 0 ? index + 1 : emitted,
      hidden: found.state === 'hidden' || found.state === 'veryHidden',
      part: target ? (target.startsWith('/') ? target.slice(1) : `xl/${target}`) : null,
      rows: sheet as unknown as AsyncIterable<XlsxRow>,
    };
  }
  // The same early end after the workbook's parts drops the sheets exceljs had parked: read it again.
  if (emitted < worksheetCount(parts())) throw new SharedStringsLost();
}

/** What exceljs's reader learned of the workbook's own parts (undefined before it read them). */
interface WorkbookParts {
  model?: { sheets?: { name?: string; rId?: string }[] };
  workbookRels?: { Id?: string; Target?: string }[];
}

/** How many worksheets the workbook lists (chart sheets have no rows and are never emitted). */
function worksheetCount({ model, workbookRels }: WorkbookParts): number {
  const worksheetIds = new Set(
    (workbookRels ?? []).filter((rel) => /worksheets\/sheet\d+\.xml$/.test(rel.Target ?? '')).map((rel) => rel.Id),
  );
  return (model?.sheets ?? []).filter((sheet) => worksheetIds.has(sheet.rId)).length;
}

/** The rows of one sheet (by name; null: the first sheet the workbook stores). */
async function* sheetRows(input: fs.ReadStream, name: string | null): AsyncGenerator<XlsxRow> {
  let any = false;
  for await (const sheet of workbookSheets(input)) {
    any = true;
    if (name !== null && sheet.name !== name) continue;
    for await (const row of sheet.rows) yield row;
    return;
  }
  if (!any) throw new ImportInputError('The workbook has no worksheet.');
  throw new ImportInputError(
    `The workbook has no sheet named "${name ?? ''}". Choose one of its sheets (the preview lists them).`,
    'sheet',
  );
}

/** A row's cells (rowCells) for other modules of the reader. */
export function xlsxRowCells(row: XlsxRow, limits: ImportLimits): (string | number | boolean | Date | null)[] {
  return rowCells(row.values, row.number, limits);
}

/** Which sheet and row a workbook's import reads (intake/layout.ts settles them); null: the first sheet, the first non-blank row. */
export interface SheetLayout {
  sheet: string | null;
  headerRow: number | null;
}

/**
 * Streaming XLSX (exceljs WorkbookReader): one sheet, shared strings resolved, date cells as
 * Dates. Blank spreadsheet rows keep their place, so row_number is the sheet's row; rows above the
 * header row are skipped.
 */
export function xlsxSource(file: string, limits: ImportLimits, layout: SheetLayout = { sheet: null, headerRow: null }): RowSource {
  const size = Math.max(1, fs.statSync(file).size);
  let input: fs.ReadStream | undefined;
  return {
    fraction: () => (input ? Math.min(1, input.bytesRead / size) : 0),
    async read(handlers: RowHandlers) {
      await checkWorkbookLimits(file, limits);
      // readOnce throws SharedStringsLost only before the header was handed over: nothing happened yet.
      return retryingLostSharedStrings(() => readOnce(handlers));
    },
  };

  async function readOnce(handlers: RowHandlers): Promise<void> {
    input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    let headerRow = -1;
    let chunk: (unknown[] | null)[] = [];
    let chunkFirst = 0;
    let nextIndex = 0;
    let handlerError: unknown;
    const handle = (call: () => void) => {
      try {
        call();
      } catch (error) {
        handlerError = error;
        throw error;
      }
    };
    const flush = () => {
      if (chunk.length === 0) return;
      const rows = chunk;
      chunk = [];
      handle(() => handlers.onRows(rows, chunkFirst));
    };
    try {
      for await (const row of sheetRows(input, layout.sheet)) {
        const cells = rowCells(row.values, row.number, limits);
        if (headerRow < 0) {
          if (layout.headerRow === null ? isBlankRow(cells) : row.number < layout.headerRow) continue;
          const atHeader = layout.headerRow === null || row.number === layout.headerRow;
          headerRow = atHeader ? row.number : (layout.headerRow ?? row.number);
          // A header row the sheet leaves out entirely is a blank header.
          const header = atHeader ? cells : [];
          handle(() => handlers.onHeader(header.map((c) => (c === null ? '' : c instanceof Date ? c.toISOString() : String(c)))));
          if (atHeader) continue;
        }
        const index = row.number - headerRow - 1;
        if (chunk.length === 0) chunkFirst = nextIndex;
        while (nextIndex < index) {
          chunk.push(null);
          nextIndex++;
        }
        chunk.push(cells);
        nextIndex++;
        if (chunk.length >= CHUNK_ROWS) flush();
      }
      flush();
    } catch (error) {
      if (error instanceof SharedStringsLost && headerRow < 0) throw error;
      throw error === handlerError ? error : asInputError(error);
    } finally {
      input.destroy();
    }
    if (headerRow < 0) {
      if (layout.headerRow !== null) {
        throw new ImportInputError(`The sheet has no row ${layout.headerRow}: header_row is beyond its last row.`, 'header_row');
      }
      throw new ImportInputError('The worksheet is empty: it has no header row.');
    }
  }
}
