import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanText, measureReplace, textProblem } from '../../server/import-drafts/bounds.ts';

const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a replace measured before it is made', () => {
  it('gives the length and the bytes the replace then makes, case ignored or not, whole cell or not', () => {
    const cases: [text: string, find: string, replace: string, matchCase: boolean, wholeCell: boolean][] = [
      ['aAaBa', 'a', 'xyz', false, false],
      ['aAaBa', 'a', 'xyz', true, false],
      ['aaaa', 'aa', 'b', true, false],
      ['Straße STRASSE', 'ss', 'ß', false, false],
      ['İstanbul', 'i', 'I', false, false],
      ['ÉéE', 'é', 'e', false, false],
      ['abc', 'ABC', 'x', false, true],
      ['abcabc', 'abc', 'x', true, true],
      ['Kk\u212A', 'k', 'q', false, false],
      ['$a$', 'a', '$&', true, false],
      ['🚚a🚚', '🚚', 'truck', true, false],
    ];
    for (const [text, find, replace, matchCase, wholeCell] of cases) {
      const pattern = new RegExp(wholeCell ? `^${escapePattern(find)}$` : escapePattern(find), matchCase ? 'g' : 'gi');
      const made = text.replace(pattern, replace.replaceAll('$', '$$$$'));
      const measured = measureReplace(text, pattern, replace, { find, matchCase, wholeCell });
      const label = JSON.stringify({ text, find, replace, matchCase, wholeCell });
      assert.equal(measured.chars, made.length, label);
      assert.equal(measured.addedBytes, Buffer.byteLength(made) - Buffer.byteLength(text), label);
    }
  });

  it('measures the result of the four-request kill without making it', () => {
    const cell = 'a'.repeat(10_000);
    const measured = measureReplace(cell, /a/g, 'a'.repeat(1000), { find: 'a', matchCase: true, wholeCell: false });
    assert.equal(measured.chars, 10_000_000);
  });
});

describe('cell text a draft stores', () => {
  it('is refused with a NUL or half a surrogate pair, and cleaned from a stored row', () => {
    assert.match(textProblem('a\u0000b') ?? '', /NUL/);
    assert.match(textProblem('a\uD800b') ?? '', /broken character/);
    assert.equal(textProblem('Depot 🚚'), null);
    assert.deepEqual(cleanText('a\u0000b\uDC00c🚚'), { text: 'ab\uFFFDc🚚', cleaned: true });
    assert.deepEqual(cleanText('plain'), { text: 'plain', cleaned: false });
  });
});
