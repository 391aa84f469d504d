import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { ImportInputError } from '../errors.ts';
import { describeLimit, type ImportLimits } from '../limits.ts';
import { SheetRowCounter } from './xlsx-row-count.ts';
import { centralDirectory, compressedStream, notWorkbook, type ZipEntry } from './xlsx/zip.ts';
import { LT, GT } from './xml-bytes.ts';

/** The ratio is judged once an entry has given this much: tiny entries compress far better than any sheet. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/**
 * The length of the run of bytes without `<` or `>` (text between tags) at the end of `chunk`,
 * given `run` bytes of it before the chunk; more than `limit` as soon as any run passes it. Jumps
 * ahead `limit` bytes at a time and looks back for a tag: a few native searches per chunk.
 */
export function longestRunEnd(chunk: Buffer, run: number, limit: number): number {
  let from = 0;
  let carried = run;
  for (;;) {
    const horizon = from + (limit - carried);
    if (horizon >= chunk.length - 1) {
      const last = Math.max(chunk.lastIndexOf(LT), chunk.lastIndexOf(GT));
      return last >= from ? chunk.length - 1 - last : carried + chunk.length - from;
    }
    const last = Math.max(chunk.lastIndexOf(LT, horizon), chunk.lastIndexOf(GT, horizon));
    if (last < from) return limit + 1;
    carried = 0;
    from = last + 1;
  }
}

/** What else looks at an entry's bytes as they are checked (a sheet's row count); a throw refuses the file. */
export interface EntryObserver {
  push(chunk: Buffer): void;
}

/**
 * Inflates one entry as a stream and counts what comes out, stopping at the first limit it
 * passes: decompressed size, compression ratio, or a run of text between XML tags (a cell)
 * longer than the cell limit. Nothing is kept: memory stays at one chunk whatever the entry holds.
 * Answers its unpacked size.
 */
export async function checkEntry(
  file: string,
  entry: ZipEntry,
  limits: ImportLimits,
  before: number,
  rows?: EntryObserver,
): Promise<number> {
  const input = compressedStream(file, entry);
  if (input === null) return 0;
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
      if (before + out > limits.maxXlsxTotalBytes) {
        done(
          new ImportInputError(
            `The workbook's parts unpack to more than ${describeLimit(limits, 'maxXlsxTotalBytes')} together (passed at ${entry.name}). Split the workbook or import its sheet as CSV.`,
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
      run = longestRunEnd(chunk, run, limits.maxCellChars);
      try {
        rows?.push(chunk);
      } catch (error) {
        done(error as Error);
        return;
      }
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
    if (entry.method === 8) await pipeline(input, zlib.createInflateRaw({ chunkSize: 256 * 1024 }), counter);
    else await pipeline(input, counter);
  } catch (error) {
    if (error instanceof ImportInputError) throw error;
    throw notWorkbook(`the zip entry ${entry.name} could not be unpacked (${(error as Error).message})`);
  }
  return out;
}

const WORKSHEET = /(^|\/)worksheets\/[^/]+\.xml$/;

/**
 * Checks every entry of a workbook against the limits (each and all together), streaming, before any XML of it is parsed;
 * answers each worksheet part's rows holding a value, counted on the way ({ "xl/worksheets/sheet1.xml": 7 }).
 */
export async function checkWorkbookLimits(file: string, limits: ImportLimits): Promise<Map<string, number>> {
  const counted = new Map<string, number>();
  let total = 0;
  for (const entry of centralDirectory(file)) {
    const rows = WORKSHEET.test(entry.name) ? new SheetRowCounter() : undefined;
    total += await checkEntry(file, entry, limits, total, rows);
    if (rows) counted.set(entry.name, rows.rows);
  }
  return counted;
}
