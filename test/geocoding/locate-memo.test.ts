/** locate() remembers answers by the address cells as given: repeated rows must get what a first reading gives. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOfflineGeocoder, type OfflineGeocoder } from '../../server/geocoding/offline-geocoder.ts';

test('a street and a PO box at the same box-only postcode keep their own postcodes, however often and in whichever order', () => {
  const geocoder = createOfflineGeocoder();
  const street = { address_line_1: '12 George Street', suburb: 'Sydney', state: 'NSW', postcode: '1001', country: 'Australia' };
  const box = { address_line_1: 'PO Box 12', suburb: 'Sydney', state: 'NSW', postcode: '1001', country: 'Australia' };
  for (let i = 0; i < 3; i++) {
    assert.equal(geocoder.locate(street)?.postcode, '2000');
    assert.equal(geocoder.locate(box)?.postcode, '1001');
  }
  const other = createOfflineGeocoder();
  for (let i = 0; i < 3; i++) {
    assert.equal(other.locate(box)?.postcode, '1001');
    assert.equal(other.locate(street)?.postcode, '2000');
  }
});

test('a repeated address gets the same answer, frozen, so that no caller can change it for the next rows', () => {
  const geocoder = createOfflineGeocoder();
  const address = { suburb: 'Carlton', state: 'VIC', postcode: '3053', country: 'Australia' };
  const first = geocoder.locate(address);
  assert.ok(first);
  const expected = { ...first };
  assert.throws(() => {
    (first as { postcode: string }).postcode = 'changed by the caller';
  }, TypeError);
  assert.deepEqual(geocoder.locate(address), expected);
  assert.deepEqual(geocoder.locate({ ...address }), expected);
  const fresh = createOfflineGeocoder().locate(address);
  assert.deepEqual(fresh, expected);
});

test('without suburb and postcode the location text is read for every row, never a remembered answer', () => {
  const geocoder = createOfflineGeocoder();
  for (let i = 0; i < 2; i++) {
    assert.equal(geocoder.locate({ suburb: ' ', postcode: '', location: '12 Smith Street, Carlton VIC 3053' })?.postcode, '3053');
    assert.equal(geocoder.locate({ suburb: ' ', postcode: '', location: '1 Brunswick Street, Fitzroy VIC 3065' })?.postcode, '3065');
  }
});

test('cells that read the same but are written differently get the same answer', () => {
  const geocoder = createOfflineGeocoder();
  const plain = geocoder.locate({ suburb: 'Darwin', state: 'NT', postcode: '0800', country: 'Australia' });
  assert.equal(plain?.postcode, '0800');
  for (let i = 0; i < 2; i++) {
    // A spreadsheet's number cell and padded text: not the same key, the same reading.
    assert.deepEqual(geocoder.locate({ suburb: 'Darwin', state: 'NT', postcode: 800 as unknown as string, country: 'Australia' }), plain);
    assert.deepEqual(geocoder.locate({ suburb: ' Darwin ', state: 'NT ', postcode: '0800', country: ' Australia' }), plain);
  }
  // A country the gazetteer does not hold is never placed, the second time either.
  for (let i = 0; i < 2; i++) assert.equal(geocoder.locate({ suburb: 'Darwin', state: 'NT', postcode: '0800', country: 'France' }), null);
});

test('cells holding the memo key separator are read each time, never taken for other cells that join the same', () => {
  const geocoder = createOfflineGeocoder() as OfflineGeocoder;
  // Joined, both are "AU", "VIC", "Fitzroy", "", "3053".
  const fitzroy = { country: 'AU', state: 'VIC', suburb: 'Fitzroy\u0001', postcode: '3053' };
  const junk = { country: 'AU', state: 'VIC\u0001Fitzroy', suburb: '', postcode: '3053' };
  assert.equal(geocoder.locate(fitzroy)?.suburb, 'Fitzroy');
  assert.equal(geocoder.read(junk).result, null);
  assert.equal(geocoder.locate(junk), null);
});
