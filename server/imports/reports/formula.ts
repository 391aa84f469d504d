/**
 * Cells a spreadsheet would run as a formula start with = + - @, a tab or a carriage return. Cells
 * that already start with apostrophes before one of those get one more, so that reading the
 * report back (which takes one off) gives the cell as it was.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;
const APOSTROPHE = 39;

/** What the app writes into CSV files: a leading apostrophe keeps such a cell text. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The inverse, for cells read from an import file: a fixed error report goes back in with the
 * values the user typed, not with the mark the report added.
 */
export function restoreNeutralised(value: unknown): unknown {
  return typeof value === 'string' && value.charCodeAt(0) === APOSTROPHE && NEUTRALISED.test(value) ? value.slice(1) : value;
}
