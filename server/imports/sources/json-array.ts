import { ImportInputError } from '../errors.ts';
import { describeLimit, type ImportLimits } from '../limits.ts';

type State = 'start' | 'first' | 'next' | 'element' | 'after' | 'end';

/** Deeper nesting than this in one element is refused before it is parsed (deep values overflow the stack downstream). */
export const MAX_JSON_DEPTH = 64;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Splits a streamed JSON array into its elements without holding the whole text: it tracks
 * strings and nesting to find where each top-level element ends, then JSON.parses that element.
 * Kept instead of a streaming parser library: @streamparser/json alone is slower than this
 * (bench/json-source.bench.ts measures both; docs/imports.md, "JSON files").
 */
export class JsonArraySplitter {
  private state: State = 'start';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private pending = '';
  private count = 0;
  private stringLength = 0;
  private readonly limits: ImportLimits | null;

  /** With limits, an element longer than the line limit or a string longer than the cell limit is refused before it is parsed. */
  constructor(limits: ImportLimits | null = null) {
    this.limits = limits;
  }

  /** Feeds the next piece of text; returns the elements it completed. */
  push(chunk: string): unknown[] {
    const out: unknown[] = [];
    let start = this.state === 'element' ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.state === 'element') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === 0x5c) this.escaped = true;
          else if (c === 0x22) this.inString = false;
          if (this.limits && ++this.stringLength > this.limits.maxCellChars) {
            throw new ImportInputError(
              `A string in element ${this.count} of the JSON array is longer than the limit of ${describeLimit(this.limits, 'maxCellChars')}.`,
            );
          }
          continue;
        }
        if (c === 0x22) {
          this.inString = true;
          this.stringLength = 0;
        } else if (c === 0x7b || c === 0x5b) {
          if (++this.depth > MAX_JSON_DEPTH) {
            throw new ImportInputError(
              `The JSON is nested more than ${MAX_JSON_DEPTH} levels deep in element ${this.count}. Send flat objects, like [{"location": "..."}].`,
            );
          }
        } else if (c === 0x7d || c === 0x5d) {
          if (this.depth === 0) {
            if (c !== 0x5d) throw this.invalid('an unexpected }');
            out.push(this.finish(chunk.slice(start, i)));
            this.state = 'end';
          } else if (--this.depth === 0) {
            out.push(this.finish(chunk.slice(start, i + 1)));
            this.state = 'after';
          }
        } else if (c === 0x2c && this.depth === 0) {
          out.push(this.finish(chunk.slice(start, i)));
          this.state = 'next';
        }
        continue;
      }
      if (isSpace(c) || (c === 0xfeff && this.state === 'start')) continue;
      // biome-ignore lint/nursery/useExhaustiveSwitchCases: 'element' is consumed above; TypeScript narrows it out, Biome does not
      switch (this.state) {
        case 'start':
          if (c !== 0x5b) {
            throw new ImportInputError(
              c === 0x7b
                ? 'The JSON must be an array of objects, like [{"location": "..."}, ...]; this is a single object. Wrap it in [ ].'
                : 'The JSON must be an array of objects, like [{"location": "..."}, ...].',
            );
          }
          this.state = 'first';
          break;
        case 'first':
        case 'next':
          if (c === 0x5d && this.state === 'first') {
            this.state = 'end';
            break;
          }
          this.state = 'element';
          this.depth = 0;
          start = i;
          i--;
          break;
        case 'after':
          if (c === 0x2c) this.state = 'next';
          else if (c === 0x5d) this.state = 'end';
          else throw this.invalid(`"${String.fromCharCode(c)}" where a comma or ] belongs`);
          break;
        case 'end':
          throw new ImportInputError('The JSON has more text after the closing ] of the array.');
      }
    }
    if (this.state === 'element' && start >= 0) {
      this.pending += chunk.slice(start);
      this.checkLength(this.pending.length);
    }
    return out;
  }

  /** Ends the input; throws when the array was not closed. */
  end(): void {
    if (this.state === 'start') throw new ImportInputError('The JSON is empty. Send an array of objects.');
    if (this.state !== 'end')
      throw new ImportInputError(`The JSON ends before the array is closed (after ${this.count} elements). Is the file cut short?`);
  }

  /** True once the array's opening [ was read. */
  get started(): boolean {
    return this.state !== 'start';
  }

  private checkLength(length: number): void {
    if (this.limits && length > this.limits.maxLineChars) {
      throw new ImportInputError(
        `Element ${this.count} of the JSON array is longer than the limit of ${describeLimit(this.limits, 'maxLineChars')}.`,
      );
    }
  }

  private finish(tail: string): unknown {
    this.checkLength(this.pending.length + tail.length);
    const text = this.pending + tail;
    this.pending = '';
    this.count++;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw this.invalid(`${(error as Error).message} in element ${this.count - 1}`);
    }
  }

  private invalid(what: string): ImportInputError {
    return new ImportInputError(`The JSON is not valid: ${what}.`);
  }
}
