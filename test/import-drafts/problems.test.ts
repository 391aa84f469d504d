import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellText, problemColumn, searchText } from '../../server/import-drafts/problems.ts';

const QR = ['location', 'name', 'suburb', 'state', 'postcode', 'tag_name', 'tag_number'];

describe('problemColumn: the cell an exclusion reason is about', () => {
  it('takes the field a schema message starts with, also inside a path', () => {
    assert.equal(problemColumn('state: must be one of VIC, NSW', QR), 'state');
    assert.equal(problemColumn('tags.0.tag_number: is required', QR), 'tag_number');
  });

  it("takes the cell whose value the geocoder's reason quotes", () => {
    const cells = { location: '', suburb: 'Fitzroy', state: 'VCI' };
    assert.equal(problemColumn('Address could not be located. "VCI" is not a state or province the gazetteer knows.', QR, cells), 'state');
  });

  it('puts an address that cannot be located at the location, or at the suburb when the location is empty', () => {
    const message = 'Address could not be located. Please check the street address.';
    assert.equal(problemColumn(message, QR, { location: '1 Main Rd' }), 'location');
    assert.equal(problemColumn(message, QR, { location: '', suburb: 'Nowhere' }), 'suburb');
  });

  it('falls back on a column the message names, else none', () => {
    assert.equal(problemColumn('The tag_name and tag_number go together', QR), 'tag_name');
    assert.equal(problemColumn('The row has 12 cells but the header has 9 columns', QR), null);
    assert.equal(problemColumn(null, QR), null);
  });
});

describe('draft cell text', () => {
  it('keeps text, writes numbers and booleans, leaves nothing empty', () => {
    assert.deepEqual(
      [cellText('a'), cellText(800), cellText(true), cellText(null), cellText(undefined), cellText({ a: 1 })],
      ['a', '800', 'true', '', '', '{"a":1}'],
    );
    assert.equal(searchText({ a: 'Carlton', b: 'VIC' }), 'carlton\u001fvic');
  });
});
