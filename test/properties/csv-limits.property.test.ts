import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../../server/imports/limits.ts';
import { CsvLimitScanner } from '../../server/imports/sources/csv-limits.ts';

/** Text made of what changes a CSV's reading: cells, delimiters, quotes, CR, LF, and a letter beyond Latin-1. */
const textArb = fc
  .array(fc.constantFrom('a', 'b', ',', ',', '"', '\r', '\n', '\r\n', '\n', 'é', 'aaaa'), { maxLength: 80 })
  .map((parts) => parts.join(''));

const limitsArb = fc.record({
  maxCellChars: fc.integer({ min: 1, max: 12 }),
  maxLineChars: fc.integer({ min: 1, max: 24 }),
  maxColumns: fc.integer({ min: 1, max: 6 }),
});

/** What the scanner says of the text fed in pieces of `piece` characters: nothing, or its refusal. */
function outcome(text: string, limits: ImportLimits, piece: number): string {
  const scanner = new CsvLimitScanner(',', limits);
  try {
    for (let i = 0; i < text.length; i += piece) scanner.push(text.slice(i, i + piece));
    scanner.end();
    return 'passed';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('CSV limits', () => {
  it('say the same of a text whatever its pieces: whole records measured at once agree with the text read a character at a time', () => {
    fc.assert(
      fc.property(textArb, limitsArb, fc.integer({ min: 2, max: 100 }), (text, given, piece) => {
        const limits = { ...DEFAULT_IMPORT_LIMITS, ...given };
        const oneByOne = outcome(text, limits, 1);
        assert.equal(outcome(text, limits, piece), oneByOne);
        assert.equal(outcome(text, limits, Math.max(1, text.length)), oneByOne);
      }),
      { numRuns: 3000 },
    );
  });
});
