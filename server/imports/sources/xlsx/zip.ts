import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ImportInputError } from '../../errors.ts';

/** One file of a zip as its central directory lists it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Where its stored bytes start (after its local header). */
  dataOffset: number;
}

/** Most entries a workbook's zip may list: Excel's own files hold tens to a few thousand (sheets, drawings, images). */
export const MAX_ZIP_ENTRIES = 10_000;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

/** A zip or its workbook found damaged; `why` says how, for a reader of another zip format (.ods) to word its own message. */
export class NotWorkbookError extends ImportInputError {
  readonly why: string;

  constructor(why: string) {
    super(
      `The file could not be read as an Excel workbook (.xlsx): ${why}. Open it in Excel and save it again as .xlsx, or export it as CSV.`,
    );
    this.why = why;
  }
}

export function notWorkbook(why: string): ImportInputError {
  return new NotWorkbookError(why);
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/** The zip's central directory: every entry with its sizes and place, read from the end of the file. */
export function centralDirectory(file: string): ZipEntry[] {
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
    if (count > MAX_ZIP_ENTRIES) {
      throw notWorkbook(
        `its zip lists ${count.toLocaleString('en-US')} entries, more than the ${MAX_ZIP_ENTRIES.toLocaleString('en-US')} a workbook may hold`,
      );
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
        // Some writers separate folders with backslashes (xl\worksheets\sheet1.xml): a zip's names use slashes.
        name: directory
          .subarray(at + 46, at + 46 + nameLength)
          .toString('utf8')
          .replaceAll('\\', '/'),
        method: directory.readUInt16LE(at + 10),
        compressedSize: directory.readUInt32LE(at + 20),
        uncompressedSize: directory.readUInt32LE(at + 24),
        localHeaderOffset: directory.readUInt32LE(at + 42),
        dataOffset: 0,
      };
      if (entry.compressedSize === ZIP64_MARK || entry.uncompressedSize === ZIP64_MARK || entry.localHeaderOffset === ZIP64_MARK)
        throw notWorkbook('it uses ZIP64, which an import does not read');
      entry.dataOffset = dataStart(fd, entry);
      entries.push(entry);
      at += 46 + nameLength + extraLength + commentLength;
    }
    refuseSharedBytes(entries, directoryOffset);
    return entries;
  } finally {
    fs.closeSync(fd);
  }
}

function dataStart(fd: number, entry: ZipEntry): number {
  const header = readAt(fd, entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) throw notWorkbook(`the zip entry ${entry.name} is damaged`);
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/**
 * Each entry's bytes are its own: two entries that share bytes (pointing at one stream to unpack
 * it many times over) or one name listed twice (where one reader takes the first, another the last)
 * refuse the file.
 */
function refuseSharedBytes(entries: ZipEntry[], directoryOffset: number): void {
  const names = new Set<string>();
  for (const entry of entries) {
    const key = entry.name.toLowerCase();
    if (names.has(key)) throw notWorkbook(`its zip lists the entry ${entry.name} twice`);
    names.add(key);
  }
  const byPlace = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 0; i < byPlace.length; i++) {
    const entry = byPlace[i] as ZipEntry;
    const next = byPlace[i + 1];
    const end = entry.dataOffset + entry.compressedSize;
    if (next !== undefined && end > next.localHeaderOffset) {
      throw notWorkbook(`its zip entries ${entry.name} and ${next.name} overlap (share bytes), as a zip bomb's do`);
    }
    if (end > directoryOffset) throw notWorkbook(`its zip entry ${entry.name} runs into the zip directory`);
  }
}

/** The entry's stored bytes (still compressed), streamed from the file. */
export function compressedStream(file: string, entry: ZipEntry, highWaterMark = 64 * 1024): fs.ReadStream | null {
  checkMethod(entry);
  if (entry.compressedSize === 0) return null;
  const start = entry.dataOffset;
  return fs.createReadStream(file, { start, end: start + entry.compressedSize - 1, highWaterMark });
}

function checkMethod(entry: ZipEntry): void {
  if (entry.method !== 0 && entry.method !== 8) throw notWorkbook(`the zip entry ${entry.name} uses compression method ${entry.method}`);
}

/** The entry's content inflated as it streams (`output`), and the file stream under it (`input`, for progress); null when empty. */
export function entryStream(file: string, entry: ZipEntry): { input: fs.ReadStream; output: Readable } | null {
  const input = compressedStream(file, entry, 1 << 20);
  if (input === null) return null;
  if (entry.method === 0) return { input, output: input };
  const inflate = zlib.createInflateRaw({ chunkSize: 1 << 20 });
  input.on('error', (error) => inflate.destroy(error));
  return { input, output: input.pipe(inflate) };
}

/** A small entry's whole content (a workbook's own parts: workbook, relationships, styles), refused past `maxBytes` unpacked. */
export function readEntry(file: string, entry: ZipEntry, maxBytes: number): Buffer {
  checkMethod(entry);
  const tooBig = () =>
    new ImportInputError(
      `The workbook's part ${entry.name} unpacks to more than ${(maxBytes / (1024 * 1024)).toLocaleString('en-US')} MB, the most a workbook's ${entry.name.endsWith('.rels') ? 'relationships part' : 'own part'} may hold. Open it in Excel and save it again as .xlsx, or export it as CSV.`,
    );
  if (entry.method === 0 && entry.compressedSize > maxBytes) throw tooBig();
  const stored = Buffer.alloc(entry.compressedSize);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, stored, 0, entry.compressedSize, entry.dataOffset);
  } finally {
    fs.closeSync(fd);
  }
  if (entry.method === 0) return stored;
  try {
    return zlib.inflateRawSync(stored, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig();
    throw notWorkbook(`the zip entry ${entry.name} could not be unpacked (${(error as Error).message})`);
  }
}
