/** The delivery postcode of a suburb, told apart from its PO-box postcodes by Australia Post's box ranges and the shared-point rule. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOfflineGeocoder } from '../../server/geocoding/offline-geocoder.ts';
import { deliveryPlace, isAustralianBoxPostcode } from '../../server/geocoding/po-boxes.ts';

const geocoder = loadOfflineGeocoder();
const g = geocoder.gazetteer;

test("Australia Post's box ranges, per state, and nothing outside them", () => {
  for (const box of [
    '1000',
    '1001',
    '1999',
    '0200',
    '0299',
    '8000',
    '8999',
    '9000',
    '9999',
    '5800',
    '5999',
    '6800',
    '6999',
    '7800',
    '7999',
    '0900',
    '0999',
  ]) {
    assert.equal(isAustralianBoxPostcode(box), true, box);
  }
  for (const delivery of [
    '2000',
    '0800',
    '0870',
    '2600',
    '3000',
    '4000',
    '5000',
    '5799',
    '6000',
    '6799',
    '7000',
    '7799',
    '0300',
    '0899',
    '123',
    '10001',
    'SW1A',
  ]) {
    assert.equal(isAustralianBoxPostcode(delivery), false, delivery);
  }
});

test('each capital and a few big suburbs get their delivery postcode, not a box one', () => {
  const expected: [string, string, string][] = [
    ['Sydney', 'NSW', '2000'],
    ['Melbourne', 'VIC', '3000'],
    ['Brisbane', 'QLD', '4000'],
    ['Perth', 'WA', '6000'],
    ['Adelaide', 'SA', '5000'],
    ['Hobart', 'TAS', '7000'],
    ['Darwin', 'NT', '0800'],
    ['Canberra', 'ACT', '2600'],
    ['Parramatta', 'NSW', '2150'],
    ['North Sydney', 'NSW', '2060'],
  ];
  for (const [suburb, state, postcode] of expected) {
    const pool = geocoder.placesNamed('AU', suburb.toLowerCase()).filter((i) => g.state[i] === state);
    assert.ok(pool.length > 0, suburb);
    assert.equal(g.postcode[deliveryPlace(g, pool)], postcode, `${suburb} ${state} has ${pool.map((i) => g.postcode[i]).join(', ')}`);
    assert.equal(geocoder.locate({ suburb, state })?.postcode, postcode, `${suburb} ${state} located`);
  }
});
