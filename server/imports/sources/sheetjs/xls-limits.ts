import fs from 'node:fs';
import { describeError, ImportInputError } from '../../errors.ts';
import { describeLimit, type ImportLimits } from '../../limits.ts';
import { unreadable } from './unreadable.ts';
import { loadSheetJs } from './load.ts';

/** BIFF records that hold one cell each (BIFF2 to BIFF8: numbers, text, booleans and errors, formulas with their values). */
const ONE_CELL = new Set([0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0206, 0x0406, 0x007e, 0x00d6, 0x00fd, 0x0203, 0x0204, 0x0205, 0x027e]);
const MULRK = 0x00bd;
const FILEPASS = 0x002f;
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Other programs' OLE files, by a stream each holds. */
const OTHER_OLE: [stream: string, what: string][] = [
  ['WordDocument', 'a Word document (.doc)'],
  ['PowerPoint Document', 'a PowerPoint presentation (.ppt)'],
  ['__substg1.0_0037001F', 'an Outlook message (.msg)'],
];

/** The cells of a BIFF workbook stream, counted from its records; throws at a password (a FILEPASS record). */
function countCells(stream: Buffer): number {
  let cells = 0;
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    if (type === FILEPASS) throw passwordProtected();
    if (ONE_CELL.has(type)) cells++;
    else if (type === MULRK && length >= 6) cells += Math.floor((length - 6) / 6);
    at += 4 + length;
  }
  return cells;
}

function passwordProtected(): ImportInputError {
  return new ImportInputError(
    'This Excel 97-2003 workbook (.xls) is protected with a password (it is encrypted), so it cannot be read. Open it in Excel, remove the password (File > Info > Protect Workbook > Encrypt with Password, then clear it), save it as .xlsx and upload that.',
  );
}

/**
 * Checks an .xls before SheetJS reads it whole, into memory: its size (serve --max-xls-ods-mb),
 * that its OLE container (none for Excel 2.x to 4.0) holds a workbook stream (not a Word
 * document), no password, and the
 * cells its records hold (serve --max-xls-ods-cells), counted by walking the records without
 * reading them. Answers the file's bytes for SheetJS.
 */
export async function checkXlsLimits(file: string, limits: ImportLimits): Promise<Buffer> {
  const size = fs.statSync(file).size;
  if (size > limits.maxXlsOdsBytes) {
    throw new ImportInputError(
      `The .xls file is larger than the limit of ${describeLimit(limits, 'maxXlsOdsBytes')} for an .xls: it is read whole, into memory. Save it as Excel Workbook (.xlsx) or CSV, which are read as they stream, and upload that.`,
    );
  }
  const bytes = fs.readFileSync(file);
  // Excel 2.x to 4.0 wrote the workbook stream bare, without an OLE container.
  const content = bytes.subarray(0, 8).equals(OLE) ? await workbookStream(bytes) : bytes;
  const cells = countCells(content);
  if (cells > limits.maxXlsOdsCells) {
    throw new ImportInputError(
      `The .xls workbook holds ${cells.toLocaleString('en-US')} cells with a value, more than the limit of ${describeLimit(limits, 'maxXlsOdsCells')} for an .xls: it is read whole, into memory. Save it as Excel Workbook (.xlsx) or CSV, which are read as they stream, and upload that.`,
    );
  }
  return bytes;
}

/** The BIFF workbook stream of an OLE container; other programs' OLE files are refused, saying what they are. */
async function workbookStream(bytes: Buffer): Promise<Buffer> {
  const { CFB } = await loadSheetJs();
  let container: { FileIndex: { name: string; content?: Uint8Array }[] };
  try {
    container = CFB.read(bytes, { type: 'buffer' });
  } catch (error) {
    throw unreadable('xls', new Error(`its container (an OLE compound file) is damaged or cut short (${describeError(error)})`));
  }
  const stream = (name: string) => container.FileIndex.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
  const workbook = stream('Workbook') ?? stream('Book');
  if (!workbook?.content) {
    const other = OTHER_OLE.find(([name]) => stream(name));
    if (other)
      throw new ImportInputError(
        `This is ${other[1]}, not a spreadsheet. Upload the data as CSV, Excel (.xlsx, .xls), OpenDocument (.ods) or JSON.`,
      );
    throw unreadable('xls', new Error('its container holds no workbook stream'));
  }
  return Buffer.from(workbook.content.buffer, workbook.content.byteOffset, workbook.content.byteLength);
}
