import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellsAsText } from '../../server/imports/engine/cell-text.ts';
import { qrImportRowSchema, quickImportRow } from '../../server/qrcodes/import-row.ts';

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
  { location: 'Carlton VIC 3053', name: new Date('2026-03-02T00:00:00Z'), label: true, data: null, qr_code_name: '' },
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
  { location: '   ', suburb: null, postcode: Number.NaN },
  { location: 'Carlton VIC 3053', type: 42 },
];

test('the quick check of the raw cells gives exactly what the schema gives for them as text', () => {
  for (const raw of VALID) {
    const quick = quickImportRow(raw);
    assert.ok(quick, `quick check refused ${JSON.stringify(raw)}`);
    assert.deepEqual(plain(quick), plain(qrImportRowSchema.parse(cellsAsText(raw))));
  }
});

test('the quick check leaves every row the schema refuses to the schema', () => {
  for (const raw of INVALID) {
    assert.equal(qrImportRowSchema.safeParse(cellsAsText(raw)).success, false, JSON.stringify(raw));
    assert.equal(quickImportRow(raw), undefined, JSON.stringify(raw));
  }
});
