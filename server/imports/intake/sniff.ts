import fs from 'node:fs';
import { ImportInputError } from '../errors.ts';
import { isPasswordProtectedWorkbook } from './encrypted-workbook.ts';

/** The formats an import reads: CSV, JSON and the workbooks (.xlsx streamed by our reader; .xls and .ods read whole by SheetJS). */
export const IMPORT_FORMATS = ['csv', 'xlsx', 'xls', 'ods', 'json'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The workbook formats: a sheet to choose, rows numbered as the sheet numbers them. */
export type WorkbookFormat = 'xlsx' | 'xls' | 'ods';

export function isWorkbookFormat(format: ImportFormat): format is WorkbookFormat {
  return format === 'xlsx' || format === 'xls' || format === 'ods';
}

function readStart(file: string, bytes: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = fs.readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

const SIGNATURES: [bytes: number[], name: string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF'],
  [[0x1f, 0x8b], 'a gzip-compressed file (unzip it first)'],
  [[0x52, 0x61, 0x72, 0x21], 'a RAR archive'],
  [[0x37, 0x7a, 0xbc, 0xaf], 'a 7-Zip archive'],
  [[0x42, 0x5a, 0x68], 'a bzip2-compressed file'],
  [[0x7f, 0x45, 0x4c, 0x46], 'a program (ELF)'],
  [[0x4d, 0x5a], 'a Windows program'],
];

/** The kind of a well-known binary file from its first bytes, or null. */
function knownBinary(head: Buffer): string | null {
  for (const [bytes, name] of SIGNATURES) if (bytes.every((b, i) => head[i] === b)) return name;
  if (head.subarray(8, 12).toString('latin1') === 'WEBP') return 'a WebP image';
  return null;
}

/** "little-endian" or "big-endian" when every other byte of ASCII-looking text is 0. */
function utf16WithoutBom(head: Buffer): string | null {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  if (oddZero > pairs * 0.9 && evenZero === 0) return 'little-endian';
  if (evenZero > pairs * 0.9 && oddZero === 0) return 'big-endian';
  return null;
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** An OpenDocument file's first zip entry: `mimetype`, stored, naming the document type (ODF 1.2 part 3, 3.3). */
const ODF_MIMETYPE = 'mimetypeapplication/vnd.oasis.opendocument.';
const ODF_KINDS: Record<string, string> = {
  text: 'an OpenDocument text document (.odt)',
  presentation: 'an OpenDocument presentation (.odp)',
  graphics: 'an OpenDocument drawing (.odg)',
  chart: 'an OpenDocument chart (.odc)',
  formula: 'an OpenDocument formula (.odf)',
};

/** The sheet types a BIFF file's first record (BOF) names: workbook globals, worksheet, chart, macro sheet, BIFF4 workbook. */
const BIFF_SHEET_TYPES = new Set([0x0005, 0x0010, 0x0020, 0x0040, 0x0100]);

/**
 * Whether the file is an Excel 2.x to 4.0 workbook: a bare BIFF stream (no OLE container), its
 * first record a BOF (type 0x0009, 0x0209, 0x0409 or 0x0809) of a few bytes naming a sheet type.
 */
function isBareBiff(head: Buffer): boolean {
  if (head.length < 8 || head[0] !== 0x09 || ![0x00, 0x02, 0x04, 0x08].includes(head[1] ?? -1)) return false;
  const length = head.readUInt16LE(2);
  return length >= 4 && length <= 20 && BIFF_SHEET_TYPES.has(head.readUInt16LE(6));
}

/** The OpenDocument type a zip's start names ("spreadsheet", "text"), or null when it is no OpenDocument file. */
function openDocumentType(head: Buffer): string | null {
  const at = head.indexOf(ODF_MIMETYPE, 0, 'latin1');
  if (at < 0 || at > 64) return null;
  return /^[a-z-]+/.exec(head.toString('latin1', at + ODF_MIMETYPE.length, at + ODF_MIMETYPE.length + 40))?.[0] ?? '';
}

/**
 * The format of an uploaded file, from its content (the name may lie): a zip is an Excel
 * workbook unless its first entry names an OpenDocument spreadsheet, an OLE compound file is an
 * Excel 97-2003 workbook (or an encrypted .xlsx), text starting with `[` or `{` is JSON, other
 * text is CSV. Formats we cannot read get a message that says what to do.
 */
export function sniffFormat(file: string): ImportFormat {
  const head = readStart(file, 4096);
  if (head.length === 0) throw new ImportInputError('The file is empty.');
  if (head.subarray(0, 4).equals(ZIP)) {
    const type = openDocumentType(head);
    if (type === null) return 'xlsx';
    if (type === 'spreadsheet' || type === 'spreadsheet-template') return 'ods';
    throw new ImportInputError(
      `This is ${ODF_KINDS[type] ?? 'an OpenDocument file'}, not a spreadsheet. Upload the data as CSV, Excel (.xlsx, .xls), OpenDocument (.ods) or JSON.`,
    );
  }
  if (head.subarray(0, 8).equals(OLE)) {
    if (isPasswordProtectedWorkbook(file)) {
      throw new ImportInputError(
        'This Excel workbook is protected with a password (it is encrypted), so it cannot be read. Open it in Excel, remove the password (File > Info > Protect Workbook > Encrypt with Password, then clear it), save it as .xlsx and upload that.',
      );
    }
    return 'xls';
  }
  if (isBareBiff(head)) return 'xls';
  const known = knownBinary(head);
  if (known)
    throw new ImportInputError(
      `This is ${known}, not a spreadsheet. Upload the data as CSV, Excel (.xlsx, .xls), OpenDocument (.ods) or JSON.`,
    );
  const utf16 = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : null;
  const text = utf16 ? new TextDecoder(utf16).decode(head.subarray(2)) : head.toString('utf8');
  if (!utf16 && head.subarray(0, 1024).includes(0)) {
    const unmarked = utf16WithoutBom(head.subarray(0, 1024));
    if (unmarked) {
      throw new ImportInputError(
        `The file looks like UTF-16 ${unmarked} text without a byte order mark. Save it as "CSV UTF-8" and upload that.`,
      );
    }
    throw new ImportInputError(
      'The file contains NUL bytes, so it is not text, a workbook (.xlsx, .xls, .ods) or JSON. Upload it saved as CSV, a workbook or JSON.',
    );
  }
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === '[' || first === '{') return 'json';
  return 'csv';
}
