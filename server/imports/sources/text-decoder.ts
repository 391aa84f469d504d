import { isAscii, isUtf8 } from 'node:buffer';
import { ImportInputError } from '../errors.ts';
import type { TextEncodingName } from '../text-encodings.ts';

/** How much text after the first non-ASCII byte decides between UTF-8 and Windows-1252. */
export const DECIDING_BYTES = 64 * 1024;

/**
 * Windows-1252 is Latin-1 except for bytes 0x80-0x9F. Their characters, from the platform's own
 * decoder (ICU): bytes 0x81 0x8D 0x8F 0x90 0x9D are undefined in Windows-1252 and come back as
 * themselves (C1 controls), which no text saved in it contains.
 */
const WINDOWS_1252_HIGH = new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i));
const LATIN1_C1 = /[\u0080-\u009f]/g;

const SAVE_AS_UTF8 = 'Save it as UTF-8 text (in Excel or LibreOffice: "CSV UTF-8" / character set UTF-8) and upload that.';
const MIXED = `It mixes two encodings, or it is damaged, so part of its text would be garbled. ${SAVE_AS_UTF8}`;

/** A byte sequence that is not text in the file's encoding; `offset` counts from the file's first byte. */
export class TextDecodeError extends ImportInputError {
  override name = 'TextDecodeError';
  /** The problem, worded to be followed by where it is: "... at byte 12 (line 3)". */
  readonly problem: string;
  readonly offset: number;
  /** What to do, after the place. */
  readonly advice: string;

  constructor(problem: string, offset: number, advice: string, line?: number) {
    const where = `byte ${offset.toLocaleString('en-US')}${line === undefined ? '' : ` (line ${line.toLocaleString('en-US')})`}`;
    super(`${problem} at ${where}. ${advice}`);
    this.problem = problem;
    this.offset = offset;
    this.advice = advice;
  }

  /** The same error naming the line the byte is on. */
  onLine(line: number): TextDecodeError {
    return new TextDecodeError(this.problem, this.offset, this.advice, line);
  }
}

/** Where a trailing incomplete UTF-8 sequence starts (the length when the bytes end on a whole character). */
export function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let i = end - 1; i >= Math.max(0, end - 3); i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return end;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return end - i < length ? i : end;
  }
  return end;
}

/** The first byte that makes `bytes` invalid in `encoding` (a broken sequence reports where it starts). */
export function firstInvalidByte(bytes: Uint8Array, encoding: 'utf-8' | 'utf-16le' | 'utf-16be'): number {
  const validPrefix = (length: number) => {
    try {
      new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >>> 1;
    if (validPrefix(middle)) valid = middle;
    else invalid = middle;
  }
  return encoding === 'utf-8' ? completeUtf8Length(bytes.subarray(0, valid)) : valid - (valid % 2);
}

function firstNonAscii(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

/**
 * Streaming decoder of an uploaded text file, bytes in and text out, that never guesses silently:
 * - a byte order mark names the encoding (UTF-8, UTF-16LE, UTF-16BE);
 * - otherwise the text is ASCII (the same in UTF-8 and Windows-1252) up to its first other byte,
 *   and the DECIDING_BYTES from there decide: valid UTF-8 is UTF-8; text that is not valid UTF-8
 *   is Windows-1252 (Excel's "CSV (Comma delimited)"), unless most of its non-ASCII characters are
 *   valid UTF-8 ones (a UTF-8 file with broken bytes, or two encodings mixed: refused);
 * - once decided, bytes that are not valid in that encoding are an error naming their offset (never
 *   U+FFFD), as are NUL bytes and the bytes Windows-1252 leaves undefined.
 * Multibyte characters split across chunks are carried over to the next write.
 */
export class UploadTextDecoder {
  private decided: TextEncodingName | null = null;
  private sawBom = false;
  private started = false;
  /** Bytes received but not yet decoded (a split character, the BOM's start, or the deciding window). */
  private pending: Buffer = Buffer.alloc(0);
  /** File offset of pending[0]. */
  private offset = 0;
  private readonly decider: number;

  constructor(options: { decidingBytes?: number } = {}) {
    this.decider = options.decidingBytes ?? DECIDING_BYTES;
  }

  /** The encoding in use; null while the text has been ASCII only (after end(), ASCII text is UTF-8). */
  get encoding(): TextEncodingName | null {
    return this.decided;
  }

  /** True when the file starts with a byte order mark. */
  get bom(): boolean {
    return this.sawBom;
  }

  write(chunk: Uint8Array): string {
    this.pending =
      this.pending.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([this.pending, chunk]);
    return this.drain(false);
  }

  /** The text still held back; throws when the file ends inside a character. */
  end(): string {
    const text = this.drain(true);
    this.decided ??= 'utf-8';
    return text;
  }

  private drain(final: boolean): string {
    if (!this.started && !this.readBom(final)) return '';
    if (this.decided === null) {
      const ascii = this.undecidedAscii(final);
      if (this.decided === null) return ascii;
      return ascii + this.decode(final);
    }
    return this.decode(final);
  }

  /** Reads a byte order mark at the start; false while too few bytes have arrived to tell. */
  private readBom(final: boolean): boolean {
    const head = this.pending;
    if (head.length === 0 && !final) return false;
    if (head.length < 3 && !final && [0xef, 0xfe, 0xff].includes(head[0] ?? 0)) return false;
    this.started = true;
    const bom: [number[], TextEncodingName][] = [
      [[0xef, 0xbb, 0xbf], 'utf-8'],
      [[0xff, 0xfe], 'utf-16le'],
      [[0xfe, 0xff], 'utf-16be'],
    ];
    for (const [bytes, encoding] of bom) {
      if (bytes.every((b, i) => head[i] === b)) {
        this.decided = encoding;
        this.sawBom = true;
        this.take(bytes.length);
        return true;
      }
    }
    return true;
  }

  /** Passes ASCII through until the first other byte, then decides once enough text follows it. */
  private undecidedAscii(final: boolean): string {
    const bytes = this.pending;
    const at = isAscii(bytes) ? -1 : firstNonAscii(bytes);
    const asciiEnd = at < 0 ? bytes.length : at;
    this.checkNul(bytes.subarray(0, asciiEnd), this.offset);
    const text = bytes.toString('latin1', 0, asciiEnd);
    this.take(asciiEnd);
    if (at >= 0 && (this.pending.length >= this.decider || final))
      this.decided = this.decide(this.pending.subarray(0, this.decider), final);
    return text;
  }

  private decide(window: Buffer, final: boolean): TextEncodingName {
    const atEnd = final && window.length === this.pending.length;
    const complete = atEnd ? window.length : completeUtf8Length(window);
    const whole = window.subarray(0, complete);
    if (isUtf8(whole)) return 'utf-8';
    if (atEnd) {
      // UTF-8 cut short inside its last character: decoding it as UTF-8 says so.
      const cut = completeUtf8Length(window);
      if (cut > 0 && cut < window.length && isUtf8(window.subarray(0, cut))) return 'utf-8';
    }
    const asUtf8 = new TextDecoder('utf-8').decode(whole);
    let broken = 0;
    let valid = 0;
    for (let i = 0; i < asUtf8.length; i++) {
      const code = asUtf8.charCodeAt(i);
      if (code === 0xfffd) broken++;
      else if (code >= 0x80 && !(code >= 0xdc00 && code <= 0xdfff)) valid++;
    }
    if (valid > broken) {
      throw new TextDecodeError(
        'The file is mostly UTF-8 text but has bytes that are not UTF-8, the first',
        this.offset + firstInvalidByte(window, 'utf-8'),
        MIXED,
      );
    }
    return 'windows-1252';
  }

  private decode(final: boolean): string {
    const encoding = this.decided!;
    if (encoding === 'utf-8') return this.decodeUtf8(final);
    if (encoding === 'windows-1252') return this.decode1252();
    return this.decodeUtf16(encoding, final);
  }

  private decodeUtf8(final: boolean): string {
    const bytes = this.pending;
    const complete = completeUtf8Length(bytes);
    const whole = bytes.subarray(0, complete);
    if (!isUtf8(whole)) {
      throw new TextDecodeError(
        this.sawBom
          ? 'The file is marked as UTF-8 (it starts with a byte order mark) but has a byte that is not UTF-8'
          : 'The file is UTF-8 text until a byte that is not UTF-8',
        this.offset + firstInvalidByte(bytes, 'utf-8'),
        MIXED,
      );
    }
    if (final && complete < bytes.length) {
      throw new TextDecodeError(
        'The file ends in the middle of a UTF-8 character',
        this.offset + complete,
        'Is it cut short? Upload the whole file.',
      );
    }
    this.checkNul(whole, this.offset);
    const text = whole.toString('utf8');
    this.take(complete);
    return text;
  }

  /** Latin-1 decoding (fast, one byte per character) with bytes 0x80-0x9F then mapped to their Windows-1252 characters. */
  private decode1252(): string {
    const bytes = this.pending;
    this.checkNul(bytes, this.offset);
    const text = bytes.toString('latin1').replace(LATIN1_C1, (c1, at: number) => {
      const character = WINDOWS_1252_HIGH[c1.charCodeAt(0) - 0x80]!;
      if (character !== c1) return character;
      throw new TextDecodeError(
        `The file is neither UTF-8 nor Windows-1252 text: it has byte 0x${c1.charCodeAt(0).toString(16).toUpperCase()}, a character in neither,`,
        this.offset + at,
        `Is it a text file? ${SAVE_AS_UTF8}`,
      );
    });
    this.take(bytes.length);
    return text;
  }

  private decodeUtf16(encoding: 'utf-16le' | 'utf-16be', final: boolean): string {
    const bytes = this.pending;
    let usable = bytes.length - (bytes.length % 2);
    if (!final && usable >= 2) {
      const last = encoding === 'utf-16le' ? bytes[usable - 1]! : bytes[usable - 2]!;
      if (last >= 0xd8 && last <= 0xdb) usable -= 2;
    }
    if (final && usable < bytes.length) {
      throw new TextDecodeError(
        'The file is UTF-16 text but ends in the middle of a character',
        this.offset + usable,
        'Is it cut short? Upload the whole file.',
      );
    }
    let text: string;
    try {
      text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, usable));
    } catch {
      throw new TextDecodeError(
        `The file is ${encoding === 'utf-16le' ? 'UTF-16 little-endian' : 'UTF-16 big-endian'} text (it starts with that byte order mark) but has a broken character (a lone surrogate)`,
        this.offset + firstInvalidByte(bytes.subarray(0, usable), encoding),
        SAVE_AS_UTF8,
      );
    }
    const nul = text.indexOf('\u0000');
    if (nul >= 0) this.nulAt(this.offset + nul * 2);
    this.take(usable);
    return text;
  }

  private checkNul(bytes: Uint8Array, offset: number): void {
    const at = bytes.indexOf(0);
    if (at >= 0) this.nulAt(offset + at);
  }

  private nulAt(offset: number): never {
    throw new TextDecodeError(
      'The file contains a NUL byte',
      offset,
      'A CSV file is text and has none: upload it saved as CSV, a workbook (.xlsx, .xls, .ods) or JSON.',
    );
  }

  private take(bytes: number): void {
    this.pending = this.pending.subarray(bytes);
    this.offset += bytes;
  }
}
