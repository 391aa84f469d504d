import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { ImportInputError } from '../errors.ts';
import { describeLimit, type ImportLimits } from '../limits.ts';
import { SheetRowCounter } from './xlsx-row-count.ts';

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARK = 0xffffffff;
/** The ratio is judged once an entry has given this much: tiny entries compress far better than any sheet. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const LT = 0x3c;
const GT = 0x3e;

function notWorkbook(why: string): ImportInputError {
  return new ImportInputError(
    `The file could not be read as an Excel workbook (.xlsx): ${why}. Open it in Excel and save it again as .xlsx, or export it as CSV.`,
  );
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/** The zip's central directory (the list of entries with their sizes and places). */
function centralDirectory(file: string): ZipEntry[] {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const tailStart = Math.max(0, size - 65_557);
    const tail = readAt(fd, tailStart, size - tailStart);
    let end = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === END_OF_DIRECTORY) {
        end = i;
        break;
      }
    }
    if (end < 0) throw notWorkbook('its zip directory is missing (is the file cut short?)');
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset === ZIP64_MARK || directorySize === ZIP64_MARK || directoryOffset + directorySize > size) {
      throw notWorkbook('its zip directory is damaged or uses ZIP64, which an import does not read');
    }
    const directory = readAt(fd, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let n = 0; n < count; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) throw notWorkbook('its zip directory is damaged');
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const entry: ZipEntry = {
        name: directory.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
        method: directory.readUInt16LE(at + 10),
        compressedSize: directory.readUInt32LE(at + 20),
        localHeaderOffset: directory.readUInt32LE(at + 42),
      };
      if (entry.compressedSize === ZIP64_MARK || entry.localHeaderOffset === ZIP64_MARK)
        throw notWorkbook('it uses ZIP64, which an import does not read');
      entries.push(entry);
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    fs.closeSync(fd);
  }
}

function dataStart(file: string, entry: ZipEntry): number {
  const fd = fs.openSync(file, 'r');
  try {
    const header = readAt(fd, entry.localHeaderOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) throw notWorkbook(`the zip entry ${entry.name} is damaged`);
    return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Inflates one entry as a stream and counts what comes out, stopping at the first limit it
 * passes: decompressed size, compression ratio, or a run of text between XML tags (a cell)
 * longer than the cell limit. Nothing is kept: memory stays at one chunk whatever the entry holds.
 */
async function checkEntry(file: string, entry: ZipEntry, limits: ImportLimits, rows?: SheetRowCounter): Promise<void> {
  if (entry.method !== 0 && entry.method !== 8) throw notWorkbook(`the zip entry ${entry.name} uses compression method ${entry.method}`);
  if (entry.compressedSize === 0) return;
  const start = dataStart(file, entry);
  const input = fs.createReadStream(file, { start, end: start + entry.compressedSize - 1, highWaterMark: 64 * 1024 });
  let out = 0;
  let run = 0;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.length;
      if (out > limits.maxXlsxEntryBytes) {
        done(
          new ImportInputError(
            `The workbook's part ${entry.name} unpacks to more than ${describeLimit(limits, 'maxXlsxEntryBytes')}. Split the sheet or import it as CSV.`,
          ),
        );
        return;
      }
      if (out > RATIO_FLOOR_BYTES && out / Math.max(1, input.bytesRead) > limits.maxXlsxRatio) {
        done(
          new ImportInputError(
            `The workbook's part ${entry.name} is compressed more than ${limits.maxXlsxRatio.toLocaleString('en-US')} to 1 (the limit, serve --max-xlsx-ratio), as a zip bomb is: it is not unpacked. Save the file again from Excel, or import it as CSV.`,
          ),
        );
        return;
      }
      let from = 0;
      for (;;) {
        const lt = chunk.indexOf(LT, from);
        const gt = chunk.indexOf(GT, from);
        const next = lt < 0 ? gt : gt < 0 ? lt : Math.min(lt, gt);
        if (next < 0) {
          run += chunk.length - from;
          break;
        }
        run += next - from;
        if (run > limits.maxCellChars) break;
        run = 0;
        from = next + 1;
      }
      rows?.push(chunk);
      if (run > limits.maxCellChars) {
        done(
          new ImportInputError(
            `A cell of the workbook (in ${entry.name}) is longer than the limit of ${describeLimit(limits, 'maxCellChars')}. Shorten it and import again.`,
          ),
        );
        return;
      }
      done();
    },
  });
  try {
    if (entry.method === 8) await pipeline(input, zlib.createInflateRaw(), counter);
    else await pipeline(input, counter);
  } catch (error) {
    if (error instanceof ImportInputError) throw error;
    throw notWorkbook(`the zip entry ${entry.name} could not be unpacked (${(error as Error).message})`);
  }
}

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * Checks every entry of a workbook against the limits, streaming, before any XML of it is parsed;
 * answers each worksheet part's rows holding a value, counted on the way ({ "xl/worksheets/sheet1.xml": 7 }).
 */
export async function checkWorkbookLimits(file: string, limits: ImportLimits): Promise<Map<string, number>> {
  const counted = new Map<string, number>();
  for (const entry of centralDirectory(file)) {
    const rows = WORKSHEET.test(entry.name) ? new SheetRowCounter() : undefined;
    await checkEntry(file, entry, limits, rows);
    if (rows) counted.set(entry.name, rows.rows);
  }
  return counted;
}
