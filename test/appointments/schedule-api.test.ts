import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { APPOINTMENT_FIELDS } from '../../server/appointments/fields.ts';
import { createAppointmentImporter } from '../../server/appointments/importer.ts';
import type { AppointmentSchedule } from '../../server/appointments/schemas.ts';
import { tinyGeocoder } from '../support/tiny-geocoder.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { Page } from '../../server/http/pagination.ts';
import { SPEC_APPOINTMENT_COLUMNS } from '../support/spec-columns.ts';
import { saveImportHandler } from '../support/import-handlers.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

/** RFC 4180 lines of a small CSV (quoted cells may hold commas). */
function parseCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("((?:[^"]|"")*)"|[^,]*)(,|$)/g)]
        .filter((m) => m.index < line.length || m[3] === ',')
        .map((m) => (m[2] !== undefined ? m[2].replace(/""/g, '"') : (m[1] ?? ''))),
    );
}

describe('appointment schedule list and template', () => {
  let server: TestServer;
  let org: string;
  let schedules: AppointmentSchedule[];

  before(async () => {
    server = await startTestServer();
    org = server.organizationUuid;
    const importer = createAppointmentImporter(server.ctx.db, { organizationUuid: org, geocoder: tinyGeocoder, collectSchedules: true });
    const base = { tag_name: 'Gate', location: '1 Collins Street, Melbourne VIC 3000', service: 'Plumbing' };
    const rows = [
      { ...base, tag_number: '1', start_date_time: '2026-03-02 09:00', job_reference_id: 'A' },
      { ...base, tag_number: '1', start_date_time: '2026-03-03 09:00', job_reference_id: 'B' },
      { ...base, tag_number: '2', start_date_time: '2026-03-03 23:30', job_reference_id: 'C' },
      { ...base, tag_number: '2', start_date_time: '2026-03-05 08:00', job_reference_id: 'D' },
    ].map((data, index) => ({ index, data }));
    schedules = server.ctx.db.sqlite.transaction(() => importer.importBatch(rows))().schedules;
    assert.equal(schedules.length, 4);
  });
  after(() => server.stop());

  const list = async (query: string): Promise<Page<AppointmentSchedule>> => {
    const res = await server.request(`/api/appointment_schedule?organization_uuid=${org}${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Page<AppointmentSchedule>;
  };
  const refs = (page: Page<AppointmentSchedule>) => page.items.map((s) => s.job_reference_id);

  it('lists by start time in the page shape', async () => {
    const page = await list('&per_page=3');
    assert.deepEqual(Object.keys(page).sort(), ['items', 'page', 'pages', 'per_page', 'total']);
    assert.deepEqual([page.total, page.pages, page.items.length], [4, 2, 3]);
    assert.deepEqual(refs(page), ['A', 'B', 'C']);
    assert.deepEqual(refs(await list('&per_page=3&page=2')), ['D']);
  });

  it('filters by qr code, job reference, and from/to as local dates or instants', async () => {
    const tag2 = schedules[2];
    assert.ok(tag2);
    assert.equal((await list(`&qr_code_uuid=${tag2.qr_code_uuid}`)).total, 4, 'both tags are on the one QR code address');
    assert.deepEqual(refs(await list('&job_reference_id=C')), ['C']);
    assert.deepEqual(
      refs(await list('&from=2026-03-03&to=2026-03-03')),
      ['B', 'C'],
      'dates compare with the local appointment date, both ends included',
    );
    // 23:30 local on the 3rd is 12:30Z on the 3rd.
    assert.deepEqual(refs(await list(`&from=${encodeURIComponent('2026-03-03T12:30:00Z')}`)), ['C', 'D']);
    assert.deepEqual(refs(await list(`&to=${encodeURIComponent('2026-03-03T09:00:00+11:00')}`)), ['A', 'B']);
    assert.deepEqual(refs(await list('&to=2026-03-03T09:00:00+11:00')), ['A', 'B'], 'an unencoded + in the offset');
    const none = await list('&job_reference_id=nope');
    assert.deepEqual([none.total, none.pages], [0, 0]);
  });

  it('refuses a bound without an offset, naming the field', async () => {
    const res = await server.request(`/api/appointment_schedule?organization_uuid=${org}&from=2026-03-03T09:00`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.error.details?.[0]?.path, 'query.from');
    assert.match(body.error.message, /a date \(2026-03-02\) or a date and time with an offset/);
  });

  it('the template is a CSV attachment: the documented columns in order and one example row that imports', async () => {
    const res = await server.request('/api/appointment_schedule/bulk/template');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="?appointment_schedule_template\.csv"?$/);
    const [header, example, ...rest] = parseCsv(await res.text());
    assert.deepEqual(header, [...APPOINTMENT_FIELDS]);
    assert.deepEqual(header, SPEC_APPOINTMENT_COLUMNS);
    assert.deepEqual(rest, []);
    assert.ok(example);
    const record = Object.fromEntries(header.map((title, i) => [title, example[i] ?? '']));
    assert.equal(record.organization_uuid, org);
    assert.equal(record.location, '1 Collins Street, Melbourne VIC 3000, Australia', 'a quoted cell with commas');

    const importer = createAppointmentImporter(server.ctx.db, { organizationUuid: org, geocoder: tinyGeocoder, collectSchedules: true });
    const result = server.ctx.db.sqlite.transaction(() => importer.importBatch([{ index: 0, data: record }]))();
    assert.deepEqual(result.excluded, []);
    assert.equal(result.schedules[0]?.start_date_time, '2026-03-02T09:00:00+11:00');
  });

  it("with org_identifier the template uses the handler's column titles; an unknown one is 400 listing the known slugs", async () => {
    await saveImportHandler(server, {
      name: 'Field team',
      slug: 'field-team',
      mapping: { 'Job Ref': 'job_reference_id', Asset: 'tag_name' },
    });
    const res = await server.request('/api/appointment_schedule/bulk/template?org_identifier=field-team');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', /appointment_schedule_template_field-team\.csv/);
    const [header] = parseCsv(await res.text());
    assert.deepEqual(header?.slice(0, 2), ['Asset', 'tag_number']);
    assert.equal(header?.[8], 'Job Ref');

    const unknown = await server.request('/api/appointment_schedule/bulk/template?org_identifier=nobody');
    assert.equal(unknown.status, 400);
    const body = (await unknown.json()) as ErrorBody;
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.match(body.error.message, /Unknown org_identifier "nobody".*default, field-team/);
    assert.equal(body.error.details?.[0]?.path, 'org_identifier');
  });

  it('needs a credential', async () => {
    const res = await fetch(`${server.url}/api/appointment_schedule/bulk/template`);
    assert.equal(res.status, 401);
  });
});
