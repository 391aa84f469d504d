import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { importKinds } from '../../server/imports/kinds.ts';
import type { ImportKind, RawRecord } from '../../server/imports/kind.ts';
import { qrCodeImportKind } from '../../server/qrcodes/import-kind.ts';

/**
 * A kind's quickParse (the zod-free path of the engine's row check, engine/row-check.ts) must give
 * exactly what its rowSchema gives for prepare(record) whenever it answers, and answer for every
 * well-formed row: a valid row then never pays for zod.
 */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

function schemaAnswer(kind: ImportKind, record: RawRecord) {
  return kind.rowSchema.safeParse(kind.prepare ? kind.prepare(record) : record);
}

/** Cells as files and JSON give them: good text (padded too), blanks, numbers, booleans, dates, objects, too long. */
const cell = (good: fc.Arbitrary<string>, max: number) =>
  fc.oneof(
    { weight: 16, arbitrary: good },
    { weight: 2, arbitrary: good.map((text) => `  ${text}\t`) },
    { weight: 2, arbitrary: fc.constantFrom('', '   ', undefined, null) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.integer({ min: -5, max: 99_999 }),
        fc.double(),
        fc.constant(Number.NaN),
        fc.boolean(),
        fc.constant(new Date(Date.UTC(2026, 2, 2))),
        fc.constant(new Date(Date.UTC(2026, 2, 2, 9, 30))),
        fc.constant({ nested: true }),
        fc.constant(['x']),
      ),
    },
    { weight: 1, arbitrary: fc.string({ minLength: max - 2, maxLength: max + 2 }) },
  );

const QR_GOOD: Record<string, fc.Arbitrary<string>> = {
  location: fc.constantFrom('12 Smith Street, Carlton VIC 3053', 'Fitzroy VIC 3065', 'x'),
  organization_uuid: fc.constantFrom('0190f1c2-0000-7000-8000-000000000001'),
  type: fc.constantFrom('SITE', 'depot_2', 'Depot', '9lives', 'A'.repeat(41)),
  name: fc.constantFrom('Site 1', 'Carlton depot', 'Ünïcode Café'),
  qr_code_name: fc.constantFrom('Front gate', 'Back'),
  qr_code_external_reference_id: fc.constantFrom('A-1', 'SITE-0001'),
  address_line_1: fc.constantFrom('12 Smith St', '1 Collins Street'),
  suburb: fc.constantFrom('Carlton', 'Darwin', 'Fitzroy'),
  state: fc.constantFrom('VIC', 'NT', 'CA'),
  postcode: fc.constantFrom('3053', '800', '0800', '2134'),
  country: fc.constantFrom('Australia', 'AU', 'us', 'Italy'),
  label: fc.constantFrom('x', 'Front'),
  data: fc.constantFrom('{"a":1}', 'plain'),
  tag_name: fc.constantFrom('Gate', 'Bin'),
  tag_number: fc.constantFrom('7', '0', 'A-3'),
  tag_display_name: fc.constantFrom('Gate 7'),
};

function recordArb(kind: ImportKind, good: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<RawRecord> {
  const fields = Object.fromEntries(
    kind.columns.map((column) => [column, cell(good[column] ?? fc.string({ maxLength: 12 }), kind.maxLength?.[column] ?? 500)]),
  );
  return fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<RawRecord>;
}

describe('the zod-free path of valid rows (kind.quickParse)', () => {
  it('QR codes: quickParse answers exactly the rows the schema accepts, with the same row', () => {
    let accepted = 0;
    fc.assert(
      fc.property(recordArb(qrCodeImportKind, QR_GOOD), (record) => {
        const quick = qrCodeImportKind.quickParse?.(record);
        const parsed = schemaAnswer(qrCodeImportKind, record);
        if (quick === undefined) {
          assert.equal(parsed.success, false, `quickParse left a valid row to zod: ${JSON.stringify(record)}`);
          return;
        }
        accepted++;
        assert.ok(parsed.success, `quickParse accepted a row the schema refuses: ${JSON.stringify(record)}`);
        assert.deepEqual(plain(quick), plain(parsed.data));
      }),
      { numRuns: 5000 },
    );
    assert.ok(accepted > 500, `only ${accepted} rows were valid: the generator must make valid rows too`);
  });

  for (const [id, entry] of Object.entries(importKinds)) {
    it(`${id}: every kind has a zod-free path that agrees with its schema on junk rows`, async () => {
      const kind = await entry.load();
      const quickParse = kind.quickParse;
      assert.ok(quickParse, `the ${id} kind has no quickParse: every valid row would go through zod`);
      let accepted = 0;
      fc.assert(
        fc.property(recordArb(kind, {}), (record) => {
          const quick = quickParse(record);
          const parsed = schemaAnswer(kind, record);
          if (quick === undefined) return;
          accepted++;
          assert.ok(parsed.success, `quickParse accepted a row the schema refuses: ${JSON.stringify(record)}`);
          assert.deepEqual(plain(quick), plain(parsed.data));
        }),
        { numRuns: 2000 },
      );
      assert.ok(accepted > 0, `${id}: quickParse answered for no row`);
    });
  }
});
