import fs from 'node:fs';
import { ImportInputError } from './errors.ts';

export type ImportFormat = 'csv' | 'xlsx' | 'json';

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

/**
 * The format of an uploaded file, from its content (the name may lie): a zip is an Excel
 * workbook, text starting with `[` or `{` is JSON, other text is CSV. Formats we cannot read
 * get a message that says what to do.
 */
export function sniffFormat(file: string): ImportFormat {
  const head = readStart(file, 4096);
  if (head.length === 0) throw new ImportInputError('The file is empty.');
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    if (head.includes('application/vnd.oasis.opendocument')) {
      throw new ImportInputError('This is an OpenDocument spreadsheet (.ods). Save it as Excel (.xlsx) or CSV and upload that.');
    }
    return 'xlsx';
  }
  if (head.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) {
    throw new ImportInputError('This is an old Excel 97-2003 workbook (.xls). Save it as Excel Workbook (.xlsx) or CSV UTF-8 and upload that.');
  }
  if (head.subarray(0, 4).toString('latin1') === '%PDF') {
    throw new ImportInputError('This is a PDF. Upload the data as CSV, Excel (.xlsx) or JSON.');
  }
  const utf16 = head[0] === 0xff && head[1] === 0xfe;
  const text = utf16 ? head.subarray(2).toString('utf16le') : head.toString('utf8');
  if (!utf16 && head.subarray(0, 1024).includes(0)) {
    throw new ImportInputError('The file is not text, an Excel workbook (.xlsx) or JSON. Upload CSV, .xlsx or JSON.');
  }
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === '[' || first === '{') return 'json';
  return 'csv';
}

export const FORMAT_EXTENSIONS: Record<ImportFormat, string> = { csv: '.csv', xlsx: '.xlsx', json: '.json' };
