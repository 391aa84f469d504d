import fs from 'node:fs';
import { ImportInputError } from '../errors.ts';

export interface TextEncodingInfo {
  /** Byte offset after any byte order mark. */
  start: number;
  encoding: BufferEncoding;
}

/**
 * UTF-8 (with or without BOM) and UTF-16LE with BOM (Excel's "Unicode text") are read as such;
 * text that is not valid UTF-8 is read as Windows-1252/Latin-1, which older Excel CSVs use.
 */
export function detectTextEncoding(file: string): TextEncodingInfo {
  const fd = fs.openSync(file, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(65536);
    head = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    fs.closeSync(fd);
  }
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { start: 3, encoding: 'utf8' };
  if (head[0] === 0xff && head[1] === 0xfe) return { start: 2, encoding: 'utf16le' };
  if (head[0] === 0xfe && head[1] === 0xff) {
    throw new ImportInputError('The file is UTF-16 big-endian text. Save it as CSV UTF-8 and upload that.');
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { start: 0, encoding: 'utf8' };
  } catch {
    return { start: 0, encoding: 'latin1' };
  }
}

/** The first `bytes` of a text file, decoded. */
export function readTextStart(file: string, bytes = 65536): { text: string; whole: boolean } {
  const { start, encoding } = detectTextEncoding(file);
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(bytes, Math.max(0, size - start)));
    const read = fs.readSync(fd, buffer, 0, buffer.length, start);
    const whole = start + read >= size;
    let text = buffer.subarray(0, read).toString(encoding);
    if (!whole && encoding === 'utf8') text = text.replace(/\uFFFD$/, '');
    return { text, whole };
  } finally {
    fs.closeSync(fd);
  }
}
