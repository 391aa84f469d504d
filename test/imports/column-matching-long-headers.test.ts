import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SIMILAR_HEADER_CHARS, matchColumns } from '../../server/imports/engine/column-matching.ts';
import { qrCodeImportKind } from '../../server/qrcodes/import-kind.ts';

/**
 * Edit distance costs the product of two names' lengths: a 1 MB header cell against a 1 MB title
 * of a saved mapping took minutes. A header longer than MAX_SIMILAR_HEADER_CHARS is matched only
 * exactly (name, alias, synonym, the user's mapping), never by similar spelling.
 */
describe('column matching: long headers are matched exactly, never by similarity', () => {
  const long = `Site ${'description '.repeat(40)}`.trim();

  it('does not propose a header longer than the cap as a near miss of a long saved title', () => {
    assert.ok(long.length > MAX_SIMILAR_HEADER_CHARS);
    const spec = { ...qrCodeImportKind, aliases: { [long]: 'name' } };
    const [nearMiss] = matchColumns(spec, [`${long}s`]);
    assert.deepEqual([nearMiss?.column, nearMiss?.proposed, nearMiss?.source], [null, null, 'none']);
    const [exact] = matchColumns(spec, [long]);
    assert.deepEqual([exact?.column, exact?.source], ['name', 'name']);
  });

  it('still matches a short near miss by similarity', () => {
    const [match] = matchColumns(qrCodeImportKind, ['Locaton']);
    assert.deepEqual([match?.proposed, match?.source], ['location', 'similar']);
  });
});
