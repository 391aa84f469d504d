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
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

export function notWorkbook(why: string): ImportInputError {
  return new ImportInputError(
    `The file could not be read as an Excel workbook (.xlsx): ${why}. Open it in Excel and save it again as .xlsx, or export it as CSV.`,
  );
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
        uncompressedSize: directory.readUInt32LE(at + 24),
        localHeaderOffset: directory.readUInt32LE(at + 42),
      };
      if (entry.compressedSize === ZIP64_MARK || entry.uncompressedSize === ZIP64_MARK || entry.localHeaderOffset === ZIP64_MARK)
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

/** The entry's stored bytes (still compressed), streamed from the file. */
export function compressedStream(file: string, entry: ZipEntry, highWaterMark = 64 * 1024): fs.ReadStream | null {
  checkMethod(entry);
  if (entry.compressedSize === 0) return null;
  const start = dataStart(file, entry);
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

/** A small entry's whole content (a workbook's own parts: workbook, relationships, styles). */
export function readEntry(file: string, entry: ZipEntry): Buffer {
  checkMethod(entry);
  const stored = Buffer.alloc(entry.compressedSize);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, stored, 0, entry.compressedSize, dataStart(file, entry));
  } finally {
    fs.closeSync(fd);
  }
  try {
    return entry.method === 8 ? zlib.inflateRawSync(stored) : stored;
  } catch (error) {
    throw notWorkbook(`the zip entry ${entry.name} could not be unpacked (${(error as Error).message})`);
  }
}
