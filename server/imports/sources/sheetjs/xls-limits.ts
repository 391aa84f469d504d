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

/** The BIFF version a BOF record starts: 2, 3 or 4 by its type; 5 or 8 by the version it names. */
function biffVersion(type: number, stream: Buffer, data: number): number {
  if (type === 0x0009) return 2;
  if (type === 0x0209) return 3;
  if (type === 0x0409) return 4;
  return stream.readUInt16LE(data) >= 0x0600 ? 8 : 5;
}

const BOF = new Set([0x0009, 0x0209, 0x0409, 0x0809]);

/**
 * Where a record's formula length (its cce, whose tokens follow it) is, for the records SheetJS
 * parses a formula of (FORMULA, ARRAY, SHRFMLA, NAME): [offset, bytes], or null for other records.
 */
function formulaLength(type: number, biff: number): [offset: number, bytes: 1 | 2] | null {
  switch (type) {
    case 0x0006:
      return biff === 2 ? [16, 1] : [20, 2];
    case 0x0206:
    case 0x0406:
      return [16, 2];
    case 0x0021:
    case 0x0221:
      return biff === 2 ? [7, 1] : biff < 5 ? [8, 2] : [12, 2];
    case 0x00bc:
    case 0x04bc:
      return [8, 2];
    case 0x0018:
    case 0x0218:
      return [4, biff === 2 ? 1 : 2];
    default:
      return null;
  }
}

/**
 * Walks a BIFF workbook stream's records once: counts the cells they hold, refuses a password
 * (a FILEPASS record), and blanks every formula's token list (its length set to 0) in place. An
 * import reads a formula cell's saved value, never its formula; SheetJS parses the tokens all the
 * same, and a damaged token list sent it into a loop that never ended (a real file with a few
 * changed bytes: scripts/workbook-corpus.ts). Answers the cells.
 */
function walkRecords(stream: Buffer): number {
  let cells = 0;
  let biff = 8;
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    const data = at + 4;
    if (type === FILEPASS) throw passwordProtected();
    if (BOF.has(type) && length >= 2 && data + 2 <= stream.length) biff = biffVersion(type, stream, data);
    if (ONE_CELL.has(type)) cells++;
    else if (type === MULRK && length >= 6) cells += Math.floor((length - 6) / 6);
    const formula = formulaLength(type, biff);
    if (formula) {
      const end = data + formula[0] + formula[1];
      // Too short to hold its formula's length: SheetJS would read past it and never stop.
      if (formula[0] + formula[1] > length || end > stream.length) {
        throw unreadable(
          'xls',
          new Error(`its record 0x${type.toString(16).padStart(4, '0')} at byte ${at} is cut short (the file is damaged)`),
        );
      }
      stream.fill(0, data + formula[0], end);
    }
    at = data + length;
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
 * document), no password, and the cells its records hold (serve --max-xls-ods-cells), counted by
 * walking the records without reading them. Answers the workbook stream for SheetJS, its
 * formulas blanked (walkRecords), and the cells.
 */
export async function checkXlsLimits(file: string, limits: ImportLimits): Promise<{ bytes: Buffer; cells: number }> {
  const size = fs.statSync(file).size;
  if (size > limits.maxXlsOdsBytes) {
    throw new ImportInputError(
      `The .xls file is larger than the limit of ${describeLimit(limits, 'maxXlsOdsBytes')} for an .xls: it is read whole, into memory. Save it as Excel Workbook (.xlsx) or CSV, which are read as they stream, and upload that.`,
    );
  }
  const bytes = fs.readFileSync(file);
  // Excel 2.x to 4.0 wrote the workbook stream bare, without an OLE container; SheetJS reads a bare stream too.
  const stream = bytes.subarray(0, 8).equals(OLE) ? Buffer.from(await workbookStream(bytes)) : bytes;
  // A workbook stream starts with its BOF record; SheetJS reads anything else as some other kind of file.
  if (stream.length < 4 || !BOF.has(stream.readUInt16LE(0))) {
    throw unreadable('xls', new Error('its workbook stream does not start as one does (the file is damaged)'));
  }
  const cells = walkRecords(stream);
  if (cells > limits.maxXlsOdsCells) {
    throw new ImportInputError(
      `The .xls workbook holds ${cells.toLocaleString('en-US')} cells with a value, more than the limit of ${describeLimit(limits, 'maxXlsOdsCells')} for an .xls: it is read whole, into memory. Save it as Excel Workbook (.xlsx) or CSV, which are read as they stream, and upload that.`,
    );
  }
  return { bytes: stream, cells };
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
