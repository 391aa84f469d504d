import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';

const geocoder = loadGeocoder();

test('suburb, state and postcode agreeing is a confident postcode-level match', () => {
  const result = geocoder.locate({ suburb: 'Fitzroy', state: 'VIC', postcode: '3065', country: 'AU' });
  assert.deepEqual(result, {
    latitude: -37.8004,
    longitude: 144.9745,
    precision: 'postcode',
    suburb: 'Fitzroy',
    state: 'VIC',
    postcode: '3065',
    country: 'AU',
    timezone_name: 'Australia/Melbourne',
  });
});

test('state names and abbreviations, country names and codes, case and spacing are all accepted', () => {
  const spellings = [
    { suburb: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
    { suburb: 'parramatta', state: 'New South Wales', postcode: '2150', country: 'Australia' },
    { suburb: '  PARRAMATTA ', state: 'new  south wales', postcode: ' 2150 ', country: 'australia' },
    { suburb: 'Parramatta', state: 'N.S.W.', postcode: '2150', country: 'AUS' },
    { suburb: 'Parramatta', state: 'nsw', postcode: '2150' },
  ];
  for (const address of spellings) {
    const result = geocoder.locate(address);
    assert.equal(result?.precision, 'postcode', JSON.stringify(address));
    assert.equal(result?.suburb, 'Parramatta');
    assert.equal(result?.state, 'NSW');
    assert.equal(result?.postcode, '2150');
  }
  assert.equal(geocoder.locate({ suburb: 'Box Hill', state: 'Victoria', postcode: '3128' })?.state, 'VIC');
  assert.equal(geocoder.locate({ suburb: 'Toowong', state: 'Qld', postcode: '4066' })?.state, 'QLD');
  assert.equal(geocoder.locate({ suburb: 'Sandy Bay', state: 'Tasmania', postcode: '7005' })?.state, 'TAS');
});

test('a numeric postcode that lost its leading zero is restored (800 -> 0800 Darwin NT)', () => {
  for (const postcode of [800, '800', '800.0', '0800']) {
    const result = geocoder.locate({ suburb: 'Darwin', state: 'NT', postcode: postcode as string, country: 'Australia' });
    assert.equal(result?.precision, 'postcode', String(postcode));
    assert.equal(result?.postcode, '0800');
    assert.equal(result?.suburb, 'Darwin');
    assert.equal(result?.timezone_name, 'Australia/Darwin');
  }
  assert.equal(geocoder.locate({ suburb: 'Barton', state: 'ACT', postcode: 221 as unknown as string })?.postcode, '0221');
});

test('right suburb and state with a wrong postcode is a place-level match at the suburb', () => {
  const result = geocoder.locate({ suburb: 'Fitzroy', state: 'VIC', postcode: '3000', country: 'AU' });
  assert.equal(result?.precision, 'place');
  assert.equal(result?.suburb, 'Fitzroy');
  assert.equal(result?.postcode, '3065');
  assert.equal(result?.state, 'VIC');
});

test('suburb and postcode agreeing with a contradicting state is a place-level match', () => {
  const result = geocoder.locate({ suburb: 'Fitzroy', state: 'NSW', postcode: '3065', country: 'AU' });
  assert.equal(result?.precision, 'place');
  assert.equal(result?.state, 'VIC');
});

test('an unknown suburb with a postcode in the given state is located by the postcode only', () => {
  const result = geocoder.locate({ suburb: 'Fitzroyy', state: 'VIC', postcode: '3065', country: 'AU' });
  assert.equal(result?.precision, 'postcode_only');
  assert.equal(result?.postcode, '3065');
  assert.equal(result?.state, 'VIC');
});

test('a postcode in another state than the one given, with no known suburb, is not located', () => {
  assert.equal(geocoder.locate({ state: 'NSW', postcode: '3065', country: 'AU' }), null);
  assert.equal(geocoder.locate({ suburb: 'Nowhereville', state: 'QLD', postcode: '3065', country: 'AU' }), null);
});

test('a suburb name found in several states is not guessed without a state or postcode', () => {
  assert.equal(geocoder.locate({ suburb: 'Richmond', country: 'AU' }), null);
  assert.equal(geocoder.locate({ suburb: 'Richmond', state: 'TAS', country: 'AU' })?.state, 'TAS');
  assert.equal(geocoder.locate({ suburb: 'Richmond', postcode: '3121', country: 'AU' })?.precision, 'postcode');
});

test('St and Saint, Mt and Mount are the same name', () => {
  assert.equal(geocoder.locate({ suburb: 'Saint Kilda', state: 'VIC', postcode: '3182' })?.suburb, 'St Kilda');
  assert.equal(geocoder.locate({ suburb: 'Mt Waverley', state: 'VIC', postcode: '3149' })?.suburb, 'Mount Waverley');
});

test('parts are used when given; a country the gazetteer does not cover is not located', () => {
  const result = geocoder.locate({ location: 'Sydney NSW 2000', suburb: 'Fitzroy', state: 'VIC', postcode: '3065' });
  assert.equal(result?.suburb, 'Fitzroy');
  assert.equal(geocoder.locate({ suburb: 'Fitzroy', state: 'VIC', postcode: '3065', country: 'France' }), null);
});

test('the same parts located again give the same answer, which no caller can change (answers are remembered and shared)', () => {
  const first = geocoder.locate({ suburb: 'Carlton', state: 'VIC', postcode: '3053', country: 'AU' });
  const again = geocoder.locate({ suburb: ' carlton ', state: 'VIC', postcode: '3053', country: 'AU' });
  assert.ok(first && again);
  assert.deepEqual(again, first);
  const latitude = first.latitude;
  assert.throws(() => {
    (first as { latitude: number }).latitude = 0;
  }, TypeError);
  assert.equal(geocoder.locate({ suburb: 'Carlton', state: 'VIC', postcode: '3053', country: 'AU' })?.latitude, latitude);
  assert.equal(geocoder.locate({ suburb: 'Carlton', state: 'NSW', postcode: '3053', country: 'AU' })?.precision, 'place');
});
