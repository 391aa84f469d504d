import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';

const geocoder = loadGeocoder();

test('US: city, state and ZIP', () => {
  const result = geocoder.locate({ suburb: 'Chicago', state: 'IL', postcode: '60601', country: 'US' });
  assert.equal(result?.precision, 'city');
  assert.equal(result?.country, 'US');
  assert.equal(result?.state, 'IL');
  assert.equal(result?.postcode, '60601');
  assert.ok(result && Math.abs(result.latitude - 41.88) < 0.1 && Math.abs(result.longitude + 87.62) < 0.1);
  // State by name, ZIP+4, a ZIP that lost its leading zero in a spreadsheet
  assert.equal(geocoder.locate({ suburb: 'Chicago', state: 'Illinois', postcode: '60601-1234', country: 'USA' })?.postcode, '60601');
  assert.equal(
    geocoder.locate({ suburb: 'Allston', state: 'MA', postcode: 2134 as unknown as string, country: 'United States' })?.postcode,
    '02134',
  );
});

test('US: a city name in many states needs the state', () => {
  assert.equal(geocoder.locate({ suburb: 'Springfield', country: 'US' }), null);
  assert.equal(geocoder.locate({ suburb: 'Springfield', state: 'Missouri', country: 'US' })?.state, 'MO');
  assert.equal(geocoder.locate({ suburb: 'Springfield', state: 'IL', country: 'US' })?.state, 'IL');
});

test('GB: outward code of a full postcode, and place', () => {
  const result = geocoder.locate({ suburb: 'Manchester', postcode: 'M1 1AE', country: 'United Kingdom' });
  assert.equal(result?.precision, 'city');
  assert.equal(result?.postcode, 'M1');
  assert.equal(result?.country, 'GB');
  assert.equal(geocoder.locate({ suburb: 'Edinburgh', postcode: 'EH1 1YZ', country: 'UK' })?.state, 'City of Edinburgh');
  // A postcode's district named by its city ("London" for SW1A, whose place is Westminster Abbey)
  const london = geocoder.locate({ suburb: 'London', postcode: 'SW1A 2AA', country: 'GB' });
  assert.equal(london?.precision, 'city');
  assert.equal(london?.postcode, 'SW1A');
});

test('CA: forward sortation area and city with province', () => {
  const result = geocoder.locate({ suburb: 'Toronto', state: 'ON', postcode: 'M5V 3L9', country: 'Canada' });
  assert.equal(result?.precision, 'city');
  assert.equal(result?.postcode, 'M5V');
  assert.equal(result?.suburb, 'Toronto');
  const byProvinceName = geocoder.locate({ suburb: 'Vancouver', state: 'British Columbia', country: 'CA' });
  assert.equal(byProvinceName?.state, 'BC');
  assert.equal(byProvinceName?.precision, 'city');
  assert.equal(geocoder.locate({ suburb: 'Montreal', state: 'Québec', postcode: 'H2X 1Y4', country: 'CA' })?.postcode, 'H2X');
});

test('IT: CAP and comune, province code or region', () => {
  const result = geocoder.locate({ suburb: 'Roma', state: 'RM', postcode: '00184', country: 'Italy' });
  assert.equal(result?.precision, 'city');
  assert.equal(result?.postcode, '00184');
  assert.equal(result?.state, 'RM');
  assert.equal(geocoder.locate({ suburb: 'Firenze', state: 'Toscana', postcode: '50122', country: 'IT' })?.state, 'FI');
  assert.equal(geocoder.locate({ suburb: 'Milano', postcode: 20121 as unknown as string, country: 'Italia' })?.postcode, '20121');
});

test('a postcode alone is a postcode-only match; a wrong state excludes it', () => {
  assert.equal(geocoder.locate({ postcode: '10001', country: 'US' })?.precision, 'postcode_only');
  assert.equal(geocoder.locate({ postcode: '10001', state: 'CA', country: 'US' }), null);
});
