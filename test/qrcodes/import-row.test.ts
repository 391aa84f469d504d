import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellsAsText, qrImportRowSchema, quickImportRow } from '../../server/qrcodes/import-row.ts';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

const VALID: Record<string, unknown>[] = [
  { location: '12 Smith Street, Carlton VIC 3053', name: 'Site 1', qr_code_external_reference_id: 'A-1' },
  { suburb: 'Darwin', state: 'NT', postcode: 800, country: 'Australia' },
  {
    suburb: 'Carlton',
    postcode: '3053',
    address_line_1: '12 Smith St',
    type: 'depot_2',
    tag_name: 'Gate',
    tag_number: 7,
    tag_display_name: 'Gate 7',
  },
  { location: '  Fitzroy VIC 3065 ', postcode: '  ', label: 'x', data: '{"a":1}', qr_code_name: 'Front', country: 'US' },
  { postcode: '2134', country: 'us' },
];

const INVALID: Record<string, unknown>[] = [
  {},
  { state: 'VIC' },
  { location: 'Carlton VIC 3053', type: '9lives' },
  { location: 'Carlton VIC 3053', tag_name: 'Gate' },
  { location: 'Carlton VIC 3053', tag_number: '7' },
  { location: 'x'.repeat(1001) },
  { location: 'Carlton VIC 3053', postcode: '1'.repeat(21) },
  { location: 'Carlton VIC 3053', name: { nested: true } },
  { location: ['Carlton'] },
];

test('the quick check gives exactly what the schema gives for a valid row', () => {
  for (const raw of VALID) {
    const record = cellsAsText(raw);
    const quick = quickImportRow(record);
    assert.ok(quick, `quick check refused ${JSON.stringify(raw)}`);
    assert.deepEqual(plain(quick), plain(qrImportRowSchema.parse(record)));
  }
});

test('the quick check leaves every row the schema refuses to the schema', () => {
  for (const raw of INVALID) {
    const record = cellsAsText(raw);
    assert.equal(qrImportRowSchema.safeParse(record).success, false, JSON.stringify(raw));
    assert.equal(quickImportRow(record), undefined, JSON.stringify(raw));
  }
});
