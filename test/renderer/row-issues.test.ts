import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitRowError } from '../../renderer/src/components/import-results/row-issues.ts';

test('a QR code row: one line per field, each with its column', () => {
  const issues = splitRowError(
    'type: must be a word such as SITE (letters, digits, underscores); tag_number: tag_name and tag_number go together',
    ['location', 'type', 'tag_name', 'tag_number'],
  );
  assert.deepEqual(issues, [
    {
      column: 'type',
      message: 'must be a word such as SITE (letters, digits, underscores)',
      named: true,
      text: 'type: must be a word such as SITE (letters, digits, underscores)',
    },
    {
      column: 'tag_number',
      message: 'tag_name and tag_number go together',
      named: true,
      text: 'tag_number: tag_name and tag_number go together',
    },
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
  // The column is shown in place of its name, never twice ("start_date_time start_date_time …"); the text keeps the import's words.
  assert.equal(issues[2]?.message, '"Melbourne" is not a known IANA time zone. Did you mean Australia/Melbourne?');
  assert.equal(issues[2]?.text, 'timezone_name "Melbourne" is not a known IANA time zone. Did you mean Australia/Melbourne?');
  assert.match(issues[0]?.message ?? '', /^"next tuesday" is not .*or ISO 8601 .*or Z\)\.$/);
  assert.equal(issues[1]?.message, 'must be a whole number of minutes greater than 0, for example 60; the row has "-5".');
  assert.equal(issues.map((i) => i.text).join(' '), error, 'the pieces put together are the error as the import words it');
});

test("an address that cannot be located points at the address column and keeps the geocoder's reason with it", () => {
  const error =
    'Address could not be located. Please check the street address, suburb, state, postcode and country. "Richmond" is a place in several states (NSW, QLD, SA, TAS and VIC): add the state or the postcode.';
  // The spec's sentence names no column: no "location:" or "suburb" prefix anywhere, the cell is marked instead.
  assert.deepEqual(splitRowError(error, ['name', 'suburb', 'state']), [{ column: 'suburb', message: error, named: false, text: error }]);
  const unknown =
    'Address could not be located. Please check the street address, suburb, state, postcode and country. Neither the place "Nowhere Land" nor the postcode "99999" is in the gazetteer for Australia.';
  assert.deepEqual(
    splitRowError(unknown, ['location', 'suburb', 'postcode'], {}, (c) => c !== 'location'),
    [{ column: 'suburb', message: unknown, named: false, text: unknown }],
    'the empty location is not the cell to fix',
  );
});

test('a title a message uses for a field maps to the column of the row', () => {
  assert.deepEqual(splitRowError('type: must be a word such as SITE', ['Address', 'Kind'], { type: 'Kind' }), [
    { column: 'Kind', message: 'must be a word such as SITE', named: true, text: 'type: must be a word such as SITE' },
  ]);
});

test('a warning about an address located by its place marks the address cell and stays one line', () => {
  const warning =
    "Address located, but not exactly as written: The suburb won: postcode 9999 is not Carlton VIC's, so its own postcode 3053 is used.";
  assert.deepEqual(splitRowError(warning, ['location', 'name']), [{ column: 'location', message: warning, named: false, text: warning }]);
});

test("an address that cannot be located is marked on the file's own suburb column (Town), not on State", () => {
  const error = 'Address could not be located. Please check the street address, suburb, state, postcode and country.';
  const headers = ['Site Name', 'Street', 'Town', 'State', 'Post Code'];
  const aliases = { name: 'Site Name', address_line_1: 'Street', suburb: 'Town', state: 'State', postcode: 'Post Code' };
  const [issue] = splitRowError(error, headers, aliases);
  assert.equal(issue?.column, 'Town');
});
