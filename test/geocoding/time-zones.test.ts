import assert from 'node:assert/strict';
import { test } from 'node:test';
import tzLookup from '@photostructure/tz-lookup';
import type { AddressInput } from '../../server/geocoding/geocoder.ts';
import { loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';
import { zoneOfPlace } from '../../server/geocoding/zones.ts';

const geocoder = loadGeocoder();

function zone(address: AddressInput): string | undefined {
  return geocoder.locate(address)?.timezone_name;
}

test('Australian zones by state, with Broken Hill and Lord Howe Island', () => {
  assert.equal(zone({ suburb: 'Melbourne', state: 'VIC', postcode: '3000' }), 'Australia/Melbourne');
  assert.equal(zone({ suburb: 'Perth', state: 'WA', postcode: '6000' }), 'Australia/Perth');
  assert.equal(zone({ suburb: 'Darwin', state: 'NT', postcode: '0800' }), 'Australia/Darwin');
  assert.equal(zone({ suburb: 'Brisbane City', state: 'QLD', postcode: '4000' }), 'Australia/Brisbane');
  assert.equal(zone({ suburb: 'Sydney', state: 'NSW', postcode: '2000' }), 'Australia/Sydney');
  assert.equal(zone({ suburb: 'Adelaide', state: 'SA', postcode: '5000' }), 'Australia/Adelaide');
  assert.equal(zone({ suburb: 'Hobart', state: 'TAS', postcode: '7000' }), 'Australia/Hobart');
  assert.equal(zone({ suburb: 'Canberra', state: 'ACT', postcode: '2600' }), 'Australia/Sydney');
  assert.equal(zone({ suburb: 'Broken Hill', state: 'NSW', postcode: '2880' }), 'Australia/Broken_Hill');
  assert.equal(zone({ suburb: 'Lord Howe Island', state: 'NSW', postcode: '2898' }), 'Australia/Lord_Howe');
  assert.equal(zone({ suburb: 'Albury', state: 'NSW', postcode: '2640' }), 'Australia/Sydney');
  assert.equal(zone({ suburb: 'Wodonga', state: 'VIC', postcode: '3690' }), 'Australia/Melbourne');
});

test('split US states by coordinates', () => {
  assert.equal(zone({ suburb: 'Pensacola', state: 'FL', postcode: '32501', country: 'US' }), 'America/Chicago');
  assert.equal(zone({ suburb: 'Miami', state: 'FL', postcode: '33101', country: 'US' }), 'America/New_York');
  assert.equal(zone({ suburb: 'El Paso', state: 'TX', postcode: '79901', country: 'US' }), 'America/Denver');
  assert.equal(zone({ suburb: 'Dallas', state: 'TX', postcode: '75201', country: 'US' }), 'America/Chicago');
  assert.equal(zone({ suburb: 'Indianapolis', state: 'IN', postcode: '46204', country: 'US' }), 'America/Indiana/Indianapolis');
  assert.equal(zone({ suburb: 'Phoenix', state: 'AZ', postcode: '85004', country: 'US' }), 'America/Phoenix');
  assert.equal(zone({ suburb: 'Honolulu', state: 'HI', postcode: '96813', country: 'US' }), 'Pacific/Honolulu');
});

test('Canada by province, GB and Italy by country', () => {
  assert.equal(zone({ suburb: 'Toronto', state: 'ON', postcode: 'M5V', country: 'CA' }), 'America/Toronto');
  assert.equal(zone({ suburb: 'Vancouver', state: 'BC', country: 'CA' }), 'America/Vancouver');
  assert.equal(zone({ suburb: 'Halifax', state: 'NS', country: 'CA' }), 'America/Halifax');
  assert.equal(zone({ suburb: 'Manchester', postcode: 'M1', country: 'GB' }), 'Europe/London');
  assert.equal(zone({ suburb: 'Roma', postcode: '00184', country: 'IT' }), 'Europe/Rome');
});

test('a zone from coordinates is kept only when the state really has it', () => {
  // Near the Victorian border, coordinates alone could say Melbourne: NSW has no such zone.
  assert.equal(zoneOfPlace('AU', 'NSW', -36.12, 146.88, tzLookup), 'Australia/Sydney');
  assert.equal(zoneOfPlace('AU', 'NSW', -31.95, 141.47, tzLookup), 'Australia/Broken_Hill');
  assert.equal(
    zoneOfPlace('US', 'GA', 34.0, -85.3, () => 'America/Chicago'),
    'America/New_York',
  );
  assert.equal(zoneOfPlace('US', 'TX', 31.76, -106.49, tzLookup), 'America/Denver');
  assert.equal(zoneOfPlace('AU', 'XX', -36, 146, tzLookup), undefined);
});
