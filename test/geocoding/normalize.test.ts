import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryCode } from '../../server/geocoding/countries.ts';
import { cellText, nameKey, normalizePostcode } from '../../server/geocoding/normalize.ts';

test('name keys ignore case, accents, punctuation and spacing', () => {
  assert.equal(nameKey('  St. Kilda  East '), 'saint kilda east');
  assert.equal(nameKey('SAINT-KILDA'), 'saint kilda');
  assert.equal(nameKey('Québec'), 'quebec');
  assert.equal(nameKey("O'Connor"), 'oconnor');
  assert.equal(nameKey('Mt Waverley'), 'mount waverley');
});

test('postcodes per country', () => {
  assert.equal(normalizePostcode('AU', '800', true), '0800');
  assert.equal(normalizePostcode('AU', '800', false), '');
  assert.equal(normalizePostcode('AU', '30651', true), '');
  assert.equal(normalizePostcode('AU', '12', true), '');
  assert.equal(normalizePostcode('US', '2134', true), '02134');
  assert.equal(normalizePostcode('US', '60601-1234', false), '60601');
  assert.equal(normalizePostcode('IT', '184', true), '00184');
  assert.equal(normalizePostcode('CA', 'm5v 3l9', false), 'M5V');
  assert.equal(normalizePostcode('GB', 'sw1a 2aa', false), 'SW1A');
  assert.equal(normalizePostcode('GB', 'M1', false), 'M1');
  assert.equal(normalizePostcode('GB', '12345', false), '');
});

test('cell text from spreadsheets and JSON', () => {
  assert.equal(cellText(800), '800');
  assert.equal(cellText('800.0'), '800');
  assert.equal(cellText(null), '');
  assert.equal(cellText('  Fitzroy '), 'Fitzroy');
});

test('countries by name or code', () => {
  assert.equal(countryCode('Australia'), 'AU');
  assert.equal(countryCode(' australia '), 'AU');
  assert.equal(countryCode('United States of America'), 'US');
  assert.equal(countryCode('UK'), 'GB');
  assert.equal(countryCode('Italia'), 'IT');
  assert.equal(countryCode('France'), undefined);
});
