import { describeError, ImportInputError } from '../../errors.ts';

/** What the user calls a format SheetJS reads, and what to do with a file of it that cannot be read. */
const FORMATS = {
  xls: { name: 'an Excel 97-2003 workbook (.xls)', program: 'Excel or LibreOffice' },
  ods: { name: 'an OpenDocument spreadsheet (.ods)', program: 'LibreOffice' },
} as const;

/** A 400 for an .xls or .ods that SheetJS (or the checks before it) could not read, saying what failed and what to do. */
export function unreadable(format: keyof typeof FORMATS, error: unknown): ImportInputError {
  if (error instanceof ImportInputError) return error;
  const { name, program } = FORMATS[format];
  const message = describeError(error).replace(/\.$/, '');
  // A TypeError or RangeError is the reader tripping over bytes it did not expect: a damaged file.
  const why =
    error instanceof TypeError || error instanceof RangeError ? `it is damaged or cut short (the reader stopped at: ${message})` : message;
  return new ImportInputError(
    `The file could not be read as ${name}: ${why}. Open it in ${program} and save it again (as .xlsx, or export it as CSV), and upload that.`,
  );
}
