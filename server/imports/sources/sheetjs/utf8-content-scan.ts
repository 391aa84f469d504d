import { isUtf8 } from 'node:buffer';
import { completeUtf8Length, firstInvalidByte } from '../text-decoder.ts';
import type { OdsContentScan } from './ods-content-scan.ts';

const NO_BYTES = Buffer.alloc(0);

/**
 * content.xml's chunks to the scan, each checked to be UTF-8 first (one isUtf8 over a valid
 * chunk; a character cut by the chunk's end waits for the next). At the first byte that is not,
 * the scan reads up to it, so that it can name the cell (or the sheet's name) the byte is in.
 */
export class Utf8ContentScan {
  private readonly scan: OdsContentScan;
  /** The start of a character the last chunk cut (at most 3 bytes). */
  private carry = NO_BYTES;
  /** Bytes of content.xml before the carry. */
  private offset = 0;

  constructor(scan: OdsContentScan) {
    this.scan = scan;
  }

  push(chunk: Buffer): void {
    const bytes = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const complete = completeUtf8Length(bytes);
    if (!isUtf8(bytes.subarray(0, complete))) {
      const bad = firstInvalidByte(bytes, 'utf-8');
      // A broken character begun in the last chunk is at the start of this one, as the scan sees it.
      this.scan.push(chunk.subarray(0, Math.max(0, bad - this.carry.length)));
      throw this.scan.notUtf8(this.offset + bad);
    }
    this.offset += complete;
    this.carry = complete === bytes.length ? NO_BYTES : Buffer.from(bytes.subarray(complete));
    this.scan.push(chunk);
  }

  /** The cells the scan counted; content.xml must not end inside a character. */
  end(): number {
    if (this.carry.length > 0) throw this.scan.notUtf8(this.offset);
    return this.scan.cells;
  }
}
