import { ImportInputError } from '../errors.ts';
import { describeLimit, type ImportLimits } from '../limits.ts';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Where `search` next occurs in `text` from `from`, or the text's length when it does not. */
function indexFrom(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

/**
 * Checks CSV text as it streams, before the parser sees it: no field longer than the cell limit,
 * no record (quoted line breaks included) longer than the line limit, no record with more fields
 * than the column limit. The parser holds a whole field or record in memory; this keeps that bounded.
 * Quotes open a field only at its start and `""` inside one is an escaped quote, as papaparse reads them.
 */
export class CsvLimitScanner {
  private readonly delimiter: number;
  private readonly delimiterText: string;
  private readonly limits: ImportLimits;
  private quoted = false;
  private quoteSeen = false;
  private atFieldStart = true;
  private field = 0;
  private record = 0;
  private fields = 1;
  /** Records so far, the header being 1 (a quoted line break does not start one). */
  private line = 1;
  /** The record whose quoted field is open. */
  private quoteLine = 1;
  private lastWasCr = false;

  constructor(delimiter: string, limits: ImportLimits) {
    this.delimiter = delimiter.charCodeAt(0);
    this.delimiterText = delimiter.charAt(0);
    this.limits = limits;
  }

  push(chunk: string): void {
    const { maxCellChars, maxLineChars, maxColumns } = this.limits;
    // A record on one line (no line break in a quoted cell, no lone CR) of no more characters than
    // a cell may hold is measured by native searches, a cell at a time; any other is read a
    // character at a time.
    const plainMax = Math.min(maxCellChars, maxLineChars, maxColumns - 1);
    let nextLf = -1;
    let nextCr = -1;
    let i = 0;
    while (i < chunk.length) {
      if (this.atRecordStart()) {
        if (this.lastWasCr && chunk.charCodeAt(i) === LF) {
          this.lastWasCr = false;
          i++;
          continue;
        }
        if (nextLf < i) nextLf = indexFrom(chunk, '\n', i);
        if (nextCr < i) nextCr = indexFrom(chunk, '\r', i);
        const end = nextCr === nextLf - 1 ? nextCr : nextLf;
        if (nextLf < chunk.length && nextCr >= end && end - i <= plainMax && this.cellsEndBefore(chunk, i, end)) {
          this.line++;
          this.lastWasCr = false;
          i = nextLf + 1;
          continue;
        }
      }
      i = this.scanRecord(chunk, i);
    }
  }

  /** Whether every quoted cell of the record from `from` closes before `end` (its line break). */
  private cellsEndBefore(chunk: string, from: number, end: number): boolean {
    let at = from;
    for (;;) {
      if (chunk.charCodeAt(at) === QUOTE) {
        let close = chunk.indexOf('"', at + 1);
        while (close !== -1 && close < end && chunk.charCodeAt(close + 1) === QUOTE) close = chunk.indexOf('"', close + 2);
        if (close === -1 || close >= end) return false;
        at = close + 1;
      }
      const next = chunk.indexOf(this.delimiterText, at);
      if (next === -1 || next >= end) return true;
      at = next + 1;
    }
  }

  private atRecordStart(): boolean {
    return !this.quoted && this.record === 0 && this.fields === 1 && this.atFieldStart;
  }

  /** Reads characters from `from` to the end of the record (or of the chunk); answers where it stopped. */
  private scanRecord(chunk: string, from: number): number {
    const { maxCellChars, maxLineChars } = this.limits;
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c !== QUOTE) this.quoted = false;
        } else if (c === QUOTE) {
          this.quoteSeen = true;
        }
        if (this.quoted) {
          this.field++;
          this.record++;
          if (this.field > maxCellChars || this.record > maxLineChars) this.refuse();
          continue;
        }
      }
      if (c === LF || c === CR) {
        if (!(c === LF && this.lastWasCr)) this.line++;
        this.lastWasCr = c === CR;
        this.field = 0;
        this.record = 0;
        this.fields = 1;
        this.atFieldStart = true;
        return i + 1;
      }
      this.lastWasCr = false;
      this.record++;
      if (c === this.delimiter) {
        this.field = 0;
        this.atFieldStart = true;
        if (++this.fields > this.limits.maxColumns) {
          throw new ImportInputError(
            `Row ${this.line} of the file (the header is row 1) has more than ${this.limits.maxColumns.toLocaleString('en-US')} columns, the limit (serve --max-columns).`,
          );
        }
      } else {
        if (c === QUOTE && this.atFieldStart) {
          this.quoted = true;
          this.quoteLine = this.line;
        }
        this.atFieldStart = false;
        this.field++;
      }
      if (this.field > maxCellChars || this.record > maxLineChars) this.refuse();
    }
    return chunk.length;
  }

  /**
   * At the end of the text: a quoted field still open would make the parser read everything after
   * its quote, other rows included, as that one cell (papaparse does, and reports it only as a warning).
   */
  end(): void {
    if (!this.quoted || this.quoteSeen) return;
    throw new ImportInputError(
      `Row ${this.quoteLine} of the file (the header is row 1) opens a quoted cell that is never closed, so every row after it would be read into that one cell. Add the closing quote (") or remove the opening one and import again.`,
    );
  }

  private refuse(): never {
    if (this.field > this.limits.maxCellChars) {
      throw new ImportInputError(
        `A cell in row ${this.line} of the file (the header is row 1) is longer than the limit of ${describeLimit(this.limits, 'maxCellChars')}. Is a quote left open? Fix or shorten it and import again.`,
      );
    }
    throw new ImportInputError(
      `Row ${this.line} of the file (the header is row 1) is longer than the limit of ${describeLimit(this.limits, 'maxLineChars')}. Is a quote left open? Fix or shorten it and import again.`,
    );
  }
}
