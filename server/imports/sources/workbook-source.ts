import { isBlankRow } from '../engine/columns.ts';
import { describeError, ImportInputError } from '../errors.ts';
import type { WorkbookFormat } from '../intake/sniff.ts';
import type { ImportLimits } from '../limits.ts';
import { openWorkbook, type SheetBook } from './open-workbook.ts';
import type { RowHandlers, RowSource } from './source.ts';
import { unreadable } from './sheetjs/unreadable.ts';
import { BATCH_TEXT_CHARS, type Cell } from './xlsx/sheet-scanner.ts';
import type { WorkbookSheet } from './xlsx/workbook.ts';
import { sheetRowNumber } from './row-numbers.ts';

const CHUNK_ROWS = 2000;

/** A workbook reader's unexpected failure as the 400 it is: the file could not be read, and what to do. */
export function asInputError(error: unknown, format: WorkbookFormat = 'xlsx'): Error {
  if (error instanceof ImportInputError) return error;
  if (format !== 'xlsx') return unreadable(format, error);
  return new ImportInputError(
    `The file could not be read as an Excel workbook (.xlsx): ${describeError(error)}. Open it in Excel and save it again as .xlsx, or export it as CSV.`,
  );
}

/** Which sheet and row a workbook's import reads (intake/layout.ts settles them); null: the first sheet, the first non-blank row. */
export interface SheetLayout {
  sheet: string | null;
  headerRow: number | null;
}

/** The sheet an import reads: by name, or the workbook's first. */
export function chosenSheet(workbook: SheetBook, name: string | null): WorkbookSheet {
  if (workbook.sheets.length === 0) throw new ImportInputError('The workbook has no worksheet.');
  const sheet = name === null ? workbook.sheets[0] : workbook.sheets.find((s) => s.name === name);
  if (!sheet) {
    throw new ImportInputError(
      `The workbook has no sheet named "${name ?? ''}". Choose one of its sheets (the preview lists them).`,
      'sheet',
    );
  }
  return sheet;
}

/**
 * A workbook's rows (open-workbook.ts: .xlsx streamed by our reader, .xls and .ods read by
 * SheetJS): one sheet, date cells as Dates. Blank spreadsheet rows keep their place, so
 * row_number is the sheet's row; rows above the header row are skipped.
 */
export function workbookSource(
  file: string,
  limits: ImportLimits,
  layout: SheetLayout = { sheet: null, headerRow: null },
  format: WorkbookFormat = 'xlsx',
): RowSource {
  let workbook: SheetBook | undefined;
  return {
    fraction: () => workbook?.fraction ?? 0,
    async read(handlers: RowHandlers) {
      let headerRow = -1;
      let chunk: (Cell[] | null)[] = [];
      let chunkChars = 0;
      let numbers: number[] = [];
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
        const rowNumbers = numbers;
        chunk = [];
        chunkChars = 0;
        numbers = [];
        handle(() => handlers.onRows(rows, chunkFirst, rowNumbers));
      };
      try {
        workbook = (await openWorkbook(file, format, limits)).book;
        const sheet = chosenSheet(workbook, layout.sheet);
        for await (const batch of workbook.rows(sheet, limits.maxColumns, { maxRowChars: limits.maxLineChars })) {
          for (const row of batch) {
            const cells = row.cells;
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
              numbers.push(sheetRowNumber(headerRow, nextIndex));
              nextIndex++;
            }
            // A row out of order (its r below the last one's) takes the next index but keeps its own r.
            chunk.push(cells);
            numbers.push(row.number);
            nextIndex++;
            chunkChars += row.textChars;
            // A chunk is handed on at CHUNK_ROWS rows or BATCH_TEXT_CHARS of text, whichever comes first.
            if (chunk.length >= CHUNK_ROWS || chunkChars >= BATCH_TEXT_CHARS) flush();
          }
        }
        flush();
      } catch (error) {
        throw error === handlerError ? error : asInputError(error, format);
      } finally {
        workbook?.close();
      }
      if (headerRow < 0) {
        if (layout.headerRow !== null) {
          throw new ImportInputError(`The sheet has no row ${layout.headerRow}: header_row is beyond its last row.`, 'header_row');
        }
        throw new ImportInputError('The worksheet is empty: it has no header row.');
      }
    },
  };
}
