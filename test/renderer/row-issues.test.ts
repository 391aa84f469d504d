import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitRowError } from '../../renderer/src/pages/tasks/row-issues.ts';

test('a QR code row: one line per field, each with its column', () => {
  const issues = splitRowError(
    'type: must be a word such as SITE (letters, digits, underscores); tag_number: tag_name and tag_number go together',
    ['location', 'type', 'tag_name', 'tag_number'],
  );
  assert.deepEqual(issues, [
    { column: 'type', message: 'must be a word such as SITE (letters, digits, underscores)' },
    { column: 'tag_number', message: 'tag_name and tag_number go together' },
  ]);
});

test('an appointment row with three problems keeps each one whole, the suggestion with its zone', () => {
  const error =
    'When "next tuesday" is not a date and time this import reads. Use YYYY-MM-DD HH:mm (2026-03-02 09:00) or ISO 8601 (2026-03-02T09:00:00, optionally with an offset such as +11:00 or Z). ' +
    'duration must be a whole number of minutes greater than 0, for example 60; the row has "-5". ' +
    'timezone_name "Melbourne" is not a known IANA time zone. Did you mean Australia/Melbourne?';
  const issues = splitRowError(error, ['Tag', 'When', 'location', 'duration', 'timezone_name']);
  assert.deepEqual(
    issues.map((i) => i.column),
    ['When', 'duration', 'timezone_name'],
  );
  assert.equal(issues[2]?.message, 'timezone_name "Melbourne" is not a known IANA time zone. Did you mean Australia/Melbourne?');
  assert.match(issues[0]?.message ?? '', /or ISO 8601 .*or Z\)\.$/);
  assert.equal(issues[1]?.message, 'duration must be a whole number of minutes greater than 0, for example 60; the row has "-5".');
});

test("an address that cannot be located points at the address column and keeps the geocoder's reason with it", () => {
  const error =
    'Address could not be located. Please check the street address, suburb, state, postcode and country. "Richmond" is a place in several states (NSW, QLD, SA, TAS and VIC): add the state or the postcode.';
  assert.deepEqual(splitRowError(error, ['name', 'suburb', 'state']), [{ column: 'suburb', message: error }]);
  const unknown =
    'Address could not be located. Please check the street address, suburb, state, postcode and country. Neither the place "Nowhere Land" nor the postcode "99999" is in the gazetteer for Australia.';
  assert.deepEqual(
    splitRowError(unknown, ['location', 'suburb', 'postcode'], {}, (c) => c !== 'location'),
    [{ column: 'suburb', message: unknown }],
    'the empty location is not the cell to fix',
  );
});

test('a title a message uses for a field maps to the column of the row', () => {
  assert.deepEqual(splitRowError('type: must be a word such as SITE', ['Address', 'Kind'], { type: 'Kind' }), [
    { column: 'Kind', message: 'must be a word such as SITE' },
  ]);
});
