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
class SharedStringsLost extends Error {}

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
async function retryingLostSharedStrings<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof SharedStringsLost)) throw error;
      if (attempt >= READ_ATTEMPTS) throw lostSharedStrings();
    }
  }
}

function asInputError(error: unknown): Error {
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

/** exceljs is large: it is loaded only when a workbook is read. */
async function* firstSheetRows(input: fs.ReadStream): AsyncGenerator<XlsxRow> {
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) yield row as unknown as XlsxRow;
    return;
  }
  throw new ImportInputError('The workbook has no worksheet.');
}

/**
 * Streaming XLSX (exceljs WorkbookReader): first sheet only, shared strings resolved, date
 * cells as Dates. Blank spreadsheet rows keep their place, so row_number is the sheet's row.
 */
export function xlsxSource(file: string, limits: ImportLimits): RowSource {
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
      for await (const row of firstSheetRows(input)) {
        const cells = rowCells(row.values, row.number, limits);
        if (headerRow < 0) {
          if (isBlankRow(cells)) continue;
          headerRow = row.number;
          handle(() => handlers.onHeader(cells.map((c) => (c === null ? '' : c instanceof Date ? c.toISOString() : String(c)))));
          continue;
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
    if (headerRow < 0) throw new ImportInputError('The first worksheet is empty: it has no header row.');
  }
}

/** The first sheet's header row (for checks before a task starts). */
export async function xlsxHeader(file: string, limits: ImportLimits): Promise<{ header: string[]; hasData: boolean | null }> {
  await checkWorkbookLimits(file, limits);
  return retryingLostSharedStrings(() => headerOnce(file, limits));
}

async function headerOnce(file: string, limits: ImportLimits): Promise<{ header: string[]; hasData: boolean | null }> {
  const input = fs.createReadStream(file, { highWaterMark: 1 << 16 });
  let header: string[] | null = null;
  try {
    for await (const row of firstSheetRows(input)) {
      const cells = rowCells(row.values, row.number, limits);
      if (isBlankRow(cells)) continue;
      if (header) return { header, hasData: true };
      header = cells.map((c) => (c === null ? '' : String(c)));
    }
  } catch (error) {
    throw error instanceof SharedStringsLost ? error : asInputError(error);
  } finally {
    input.destroy();
  }
  if (!header) throw new ImportInputError('The first worksheet is empty: it has no header row.');
  return { header, hasData: false };
}
