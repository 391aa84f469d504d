/**
 * Where a data row is in the file as its user sees it: the one rule every reader follows, so the
 * preview, the results, the error report and a draft all give the same number (docs/imports.md).
 * - a workbook: the sheet's row (its own `r`), title and blank rows and the header row counted;
 * - a CSV: the line the row starts on, a quoted cell's line breaks counted;
 * - JSON: the element's position in the array, from 1.
 */

/** A sheet row the workbook leaves out (a blank row) between the header and a later row. */
export function sheetRowNumber(headerRow: number, index: number): number {
  return headerRow + 1 + index;
}

/** The JSON array's element at `index`. */
export function jsonRowNumber(index: number): number {
  return index + 1;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** How many lines of the file a CSV record takes: one, plus the line breaks inside its quoted cells. */
export function csvRecordLines(record: readonly string[] | null): number {
  let lines = 1;
  if (record) for (const cell of record) if (cell.includes('\n') || cell.includes('\r')) lines += cell.match(LINE_BREAK)?.length ?? 0;
  return lines;
}
