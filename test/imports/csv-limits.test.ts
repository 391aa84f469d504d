import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportInputError } from '../../server/imports/errors.ts';
import { DEFAULT_IMPORT_LIMITS } from '../../server/imports/limits.ts';
import { CsvLimitScanner } from '../../server/imports/sources/csv-limits.ts';

const limits = { ...DEFAULT_IMPORT_LIMITS, maxCellChars: 100, maxLineChars: 300, maxColumns: 5 };

/** Feeds the text in pieces of `piece` characters, as a stream would, then ends it. */
function scan(text: string, piece = 7): void {
  const scanner = new CsvLimitScanner(',', limits);
  for (let i = 0; i < text.length; i += piece) scanner.push(text.slice(i, i + piece));
  scanner.end();
}

describe('CSV limits are read the way papaparse reads the text', () => {
  it('passes fields, rows and columns within the limits, whatever the pieces', () => {
    const quoted = `"${'a""b,c\r\n'.repeat(10)}"`;
    for (const piece of [1, 3, 64]) scan(`name,location\r\n${quoted},x\r\n${'y'.repeat(100)},z\n`, piece);
  });

  it('counts a quoted field with escaped quotes, delimiters and line breaks as one field of one row', () => {
    assert.throws(
      () => scan(`name,location\r\n"${'a""'.repeat(40)}",x\r\n`),
      (e: Error) => e instanceof ImportInputError && /cell in row 2 /.test(e.message),
    );
    assert.doesNotThrow(() => scan(`a,b\r\n"${',,,,,,,,'.repeat(5)}"\r\n`));
  });

  it('takes a quote inside an unquoted field as a character, not the start of a quoted field', () => {
    assert.doesNotThrow(() => scan(`a,b\r\nab"cd,e\r\n${'f,g\r\n'.repeat(200)}`));
  });

  it('refuses a long row of short cells, a row with too many columns, and names the row', () => {
    assert.throws(() => scan(`a,b\r\n${Array.from({ length: 4 }, () => 'v'.repeat(90)).join(',')}\r\n`), /Row 2 .*longer than the limit/);
    assert.throws(() => scan('a,b\r\nc,d\n1,2,3,4,5,6\n'), /Row 3 .*more than 5 columns/);
  });

  it('refuses an unclosed quote once it runs past the cell limit instead of reading the rest of the file into one cell', () => {
    assert.throws(() => scan(`a,b\r\n"open,x\r\n${'c,d\r\n'.repeat(100)}`), /cell in row 2 .*Is a quote left open\?/);
  });

  it('refuses a quote still open at the end of the text, naming the row it opened in, whatever the pieces', () => {
    for (const piece of [1, 2, 64]) {
      assert.throws(
        () => scan('name,location\r\nA,"1 George St\r\nB,2 Queen St\r\n', piece),
        (e: Error) => e instanceof ImportInputError && /^Row 2 of the file .*opens a quoted cell that is never closed/.test(e.message),
      );
      assert.throws(() => scan('a,b\nc,d\ne,"f""\n', piece), /Row 3 of the file/, 'an escaped quote does not close the cell');
      assert.throws(() => scan('"a,b\nc,d\n', piece), /Row 1 of the file/);
    }
  });

  it('passes quoted cells closed at the very end of the text, with or without a last line break', () => {
    for (const piece of [1, 3, 64]) {
      for (const text of ['a,b\nc,"d"', 'a,b\nc,"d"\n', 'a,b\nc,""', 'a,b\nc,"d "" e"', 'a,b\nc,d"']) {
        assert.doesNotThrow(() => scan(text, piece), text);
      }
    }
  });
});
