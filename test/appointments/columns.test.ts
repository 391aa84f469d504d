import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ColumnMapper, columnKey } from '../../server/appointments/columns.ts';
import { appointmentRowSchema, validateAppointmentRow } from '../../server/appointments/row-schema.ts';

const ORG = '11111111-1111-4111-8111-111111111111';
const VALID = {
  tag_name: 'Gate',
  tag_number: '17',
  start_date_time: '2026-03-02 09:00',
  location: '1 Collins Street, Melbourne VIC 3000',
  service: 'Plumbing',
};

function errorOf(record: Record<string, unknown>, mapper = new ColumnMapper()): string {
  const schema = appointmentRowSchema({ organizationUuid: ORG, label: (field) => mapper.label(field) });
  const outcome = validateAppointmentRow(schema, mapper.map(record));
  if (outcome.ok) assert.fail(`expected ${JSON.stringify(record)} to be refused`);
  return outcome.error_message;
}

describe('appointment row validation', () => {
  it('accepts a minimal row: duration defaults to 60, numbers become text, organization from the import', () => {
    const mapper = new ColumnMapper();
    const schema = appointmentRowSchema({ organizationUuid: ORG });
    const outcome = validateAppointmentRow(schema, mapper.map({ ...VALID, tag_number: 17, duration: '' }));
    assert.ok(outcome.ok);
    assert.equal(outcome.row.duration, 60);
    assert.equal(outcome.row.tag_number, '17');
    assert.equal(outcome.row.organization_uuid, ORG);
    assert.equal(outcome.row.job_reference_id, null);
    assert.equal(outcome.row.start.kind, 'local');
  });

  for (const field of ['tag_name', 'tag_number', 'start_date_time', 'location'] as const) {
    it(`requires ${field}, saying so with an example`, () => {
      assert.match(errorOf({ ...VALID, [field]: '  ' }), new RegExp(`${field} is required, for example`));
      const { [field]: _dropped, ...without } = VALID;
      assert.match(errorOf(without), new RegExp(`${field} is required`));
    });
  }

  it('requires service or service_code', () => {
    const { service: _service, ...without } = VALID;
    assert.match(errorOf(without), /Give service \(the service name\) or service_code \(its code\); the row has neither/);
    const schema = appointmentRowSchema({ organizationUuid: ORG });
    assert.ok(validateAppointmentRow(schema, { ...without, service_code: 'PLB' }).ok);
  });

  it('refuses a bad duration, start and zone with messages that say what to fix', () => {
    assert.match(
      errorOf({ ...VALID, duration: '1.5' }),
      /duration must be a whole number of minutes greater than 0, for example 60; the row has "1.5"/,
    );
    assert.match(errorOf({ ...VALID, duration: -10 }), /duration must be a whole number of minutes/);
    assert.match(
      errorOf({ ...VALID, start_date_time: '2/3/2026 9am' }),
      /start_date_time "2\/3\/2026 9am" is not a date and time.*YYYY-MM-DD HH:mm/,
    );
    assert.match(
      errorOf({ ...VALID, timezone_name: 'Melbourne' }),
      /timezone_name "Melbourne" is not a known IANA time zone. Did you mean Australia\/Melbourne\?/,
    );
  });

  it('refuses a row naming another organization', () => {
    assert.match(
      errorOf({ ...VALID, organization_uuid: 'someone-else' }),
      /organization_uuid someone-else is not the organization this import runs for/,
    );
  });

  it('lists every problem of a row in one message', () => {
    const message = errorOf({ location: 'x', duration: 'soon', timezone_name: 'Nowhere' });
    for (const part of [
      'tag_name is required',
      'tag_number is required',
      'start_date_time is required',
      'duration must be',
      'timezone_name "Nowhere"',
      'Give service',
    ]) {
      assert.ok(message.includes(part), `${part} in: ${message}`);
    }
  });
});

describe('column mapping through an import handler', () => {
  const mapper = () =>
    new ColumnMapper({ 'Job Ref': 'job_reference_id', 'Visit Start': 'start_date_time', Site: 'location', Asset: 'tag_name' });

  it('reads renamed columns, spec-named columns in any case and spacing, and ignores the rest', () => {
    const values = mapper().map({
      'Job Ref': 'J-1',
      'visit start': '2026-03-02 09:00',
      SITE: 'Fitzroy',
      Asset: 'Gate',
      'Tag Number': 5,
      Notes: 'ring bell',
    });
    assert.deepEqual(values, {
      job_reference_id: 'J-1',
      start_date_time: '2026-03-02 09:00',
      location: 'Fitzroy',
      tag_name: 'Gate',
      tag_number: 5,
    });
    assert.equal(columnKey(' Tag-Number '), columnKey('tag_number'));
  });

  it("names the file's own column titles in row errors", () => {
    const m = mapper();
    const message = errorOf({ Asset: 'Gate', 'Tag Number': '1', Site: 'Fitzroy', service: 'Plumbing', 'Visit Start': 'tomorrow' }, m);
    assert.match(message, /^Visit Start "tomorrow" is not a date and time/);
  });

  it('reports missing and doubled columns of a header row in words', () => {
    assert.deepEqual(mapper().checkHeaders(['Asset', 'tag_number', 'Visit Start', 'Site', 'service'], { organizationGiven: true }), []);
    const problems = mapper().checkHeaders(['Asset', 'Job Ref', 'job_reference_id', 'service'], { organizationGiven: false });
    assert.equal(problems.length, 2);
    assert.match(problems[0] ?? '', /"Job Ref" and "job_reference_id" both give job_reference_id/);
    assert.match(
      problems[1] ?? '',
      /no column for tag_number, start_date_time \(titled "Visit Start"\), location \(titled "Site"\), organization_uuid/,
    );
    const noService = new ColumnMapper().checkHeaders(['tag_name', 'tag_number', 'start_date_time', 'location'], {
      organizationGiven: true,
    });
    assert.deepEqual(noService, ['The file needs a column for service or service_code.']);
  });
});

describe('records already keyed by field (the import engine applied the mapping)', () => {
  it('reads fields by their own names and still names columns by the handler titles', () => {
    const mapper = new ColumnMapper({ location: 'tag_name', Site: 'location', 'Visit Start': 'start_date_time' }, { titlesOnly: true });
    assert.deepEqual(mapper.map({ tag_name: 'Gate', location: 'Fitzroy' }), { tag_name: 'Gate', location: 'Fitzroy' });
    assert.equal(mapper.label('start_date_time'), 'Visit Start');
    assert.equal(mapper.label('tag_number'), 'tag_number');
  });
});
