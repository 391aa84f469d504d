import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { MappedValues } from '../../server/appointments/columns.ts';
import { appointmentRowSchema } from '../../server/appointments/row-schema.ts';

const ORG = '0190f1c2-0000-7000-8000-000000000001';

/** Cells as files and JSON give them: text (blank, padded, long), numbers, dates, booleans, nothing. */
const cell = (good: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 14, arbitrary: good },
    { weight: 1, arbitrary: good.map((text) => `  ${text}\t`) },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', undefined, null) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.integer({ min: -5, max: 500 }),
        fc.double(),
        fc.constant(Number.NaN),
        fc.boolean(),
        fc.constant(new Date(Date.UTC(2026, 2, 2, 9))),
      ),
    },
    { weight: 1, arbitrary: fc.string({ minLength: 495, maxLength: 510 }) },
  );

const valuesArb: fc.Arbitrary<MappedValues> = fc.record(
  {
    tag_name: cell(fc.constantFrom('Gate', 'Bin', 'Door 4')),
    tag_number: cell(fc.constantFrom('17', '0', 'A-3')),
    start_date_time: cell(
      fc.constantFrom(
        '2026-03-02 09:00',
        '2026-04-05 02:30',
        '2026-03-02T09:00:00+11:00',
        '2026-02-30 09:00',
        '2026-03-02',
        'soon',
        '2026-10-04 02:15Z',
      ),
    ),
    location: cell(fc.constantFrom('1 Collins Street, Melbourne VIC 3000', 'x')),
    duration: cell(fc.constantFrom('60', '90', '0', '-5', '1.5', '600000', '45.0')),
    service: cell(fc.constantFrom('Plumbing', 'Cleaning', 'Unknown')),
    service_code: cell(fc.constantFrom('PLB', 'X')),
    timezone_name: cell(fc.constantFrom('Australia/Perth', 'australia/melbourne', 'Mars/Olympus', '+10:00')),
    job_reference_id: cell(fc.constantFrom('JOB-1', 'R 2')),
    organization_uuid: cell(fc.constantFrom(ORG, 'someone-else')),
  },
  { requiredKeys: [] },
);

describe('appointment row validation without zod (schema.quick)', () => {
  it('accepts exactly the rows zod accepts, with the same values, and leaves every other row to zod', () => {
    const schema = appointmentRowSchema({ organizationUuid: ORG, label: (field) => `[${field}]` });
    let accepted = 0;
    fc.assert(
      fc.property(valuesArb, (values) => {
        const quick = schema.quick(values);
        const parsed = schema.safeParse(values);
        if (quick === null) {
          assert.equal(parsed.success, false, `quick refused a row zod accepts: ${JSON.stringify(values)}`);
          return;
        }
        accepted++;
        assert.ok(parsed.success, `quick accepted a row zod refuses: ${JSON.stringify(values)}`);
        assert.deepEqual(quick, parsed.data);
      }),
      { numRuns: 5000 },
    );
    assert.ok(accepted > 40, `only ${accepted} rows were valid: the generator must make valid rows too`);
  });
});
