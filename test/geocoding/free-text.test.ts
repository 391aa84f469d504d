import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';

const geocoder = loadGeocoder();

function where(location: string, country?: string): string | null {
  const result = geocoder.locate(country ? { location, country } : { location });
  return result && `${result.precision} ${result.suburb} ${result.state} ${result.postcode} ${result.country}`;
}

test('a full Australian address is read into suburb, state and postcode', () => {
  assert.equal(where('12 Smith St, Fitzroy VIC 3065, Australia'), 'postcode Fitzroy VIC 3065 AU');
  assert.equal(where('12 Smith St Fitzroy North Victoria 3068'), 'postcode Fitzroy North VIC 3068 AU');
  assert.equal(where('Level 3, 100 Collins Street, Melbourne, Victoria 3000, AUSTRALIA'), 'postcode Melbourne VIC 3000 AU');
  assert.equal(where('Unit 4/27 Beach Rd, Surfers Paradise QLD 4217'), 'postcode Surfers Paradise QLD 4217 AU');
  assert.equal(where('Darwin NT 0800'), 'postcode Darwin NT 0800 AU');
  assert.equal(where('Fitzroy, Victoria'), 'place Fitzroy VIC 3065 AU');
});

test('a street number is not taken for the postcode; a country already given may end the text', () => {
  assert.equal(where('1234 Smith St, Fitzroy VIC 3065'), 'postcode Fitzroy VIC 3065 AU');
  assert.equal(where('1234 Smith St, Fitzroy VIC'), 'place Fitzroy VIC 3065 AU');
  assert.equal(where('2000 Bogus Rd, Nowheresville', 'AU'), null);
  assert.equal(where('2000, Sydney', 'AU'), 'postcode Sydney NSW 2000 AU');
  assert.equal(where('12 Smith St, Fitzroy VIC 3065, Australia', 'AU'), 'postcode Fitzroy VIC 3065 AU');
  assert.equal(where('Los Angeles, CA 90012', 'US'), 'city Los Angeles CA 90012 US');
});

test('a street name that is also a suburb does not win over the suburb by the postcode', () => {
  assert.equal(where('5 Richmond Rd, Fitzroy VIC 3065'), 'postcode Fitzroy VIC 3065 AU');
});

test('addresses of other countries', () => {
  assert.equal(where('1600 Pennsylvania Ave NW, Washington, DC 20500, USA'), 'city Washington DC 20500 US');
  assert.equal(where('Los Angeles, CA 90012'), 'city Los Angeles CA 90012 US');
  assert.equal(where('10 Downing St, London SW1A 2AA, UK'), 'city London Greater London SW1A GB');
  assert.equal(where('290 Bremner Blvd, Toronto, ON M5V 3L9, Canada'), 'city Toronto ON M5V CA');
  assert.equal(where('Via del Corso 1, 00186 Roma RM, Italia'), 'city Roma RM 00186 IT');
  assert.equal(where('Piazza del Duomo, Firenze', 'Italy'), 'city Firenze FI 50100 IT');
  assert.equal(where('350 5th Ave, New York, NY 10118'), 'city New York NY 10118 US');
});

test('"CA" at the end may be California rather than Canada', () => {
  assert.equal(where('Los Angeles, CA')?.startsWith('city Los Angeles CA 9'), true);
});

test('junk is not located', () => {
  for (const junk of ['asdf', '', '   ', '123', 'Smith', '12 Smith St', '!!!', 'Australia']) {
    assert.equal(geocoder.locate({ location: junk }), null, JSON.stringify(junk));
  }
  assert.equal(geocoder.locate({}), null);
  assert.equal(geocoder.locate({ suburb: 'asdf', state: 'asdf', postcode: 'asdf' }), null);
  assert.equal(geocoder.locate({ location: null, suburb: null, state: null, postcode: null, country: null }), null);
});
