import { ImportInputError } from '../errors.ts';
import { describeLimit, type ImportLimits } from '../limits.ts';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Checks CSV text as it streams, before the parser sees it: no field longer than the cell limit,
 * no record (quoted line breaks included) longer than the line limit, no record with more fields
 * than the column limit. The parser holds a whole field or record in memory; this keeps that bounded.
 * Quotes open a field only at its start and `""` inside one is an escaped quote, as papaparse reads them.
 */
export class CsvLimitScanner {
  private readonly delimiter: number;
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
    this.limits = limits;
  }

  push(chunk: string): void {
    const { maxCellChars, maxLineChars } = this.limits;
    for (let i = 0; i < chunk.length; i++) {
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
        continue;
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
