import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import type { AppointmentImportResult, AppointmentSchedule } from '../../server/appointments/schemas.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { SPEC_APPOINTMENT_FILE_COLUMNS } from '../support/spec-columns.ts';
import { saveImportHandler } from '../support/import-handlers.ts';

const FIXTURE_XLSX = new URL('../fixtures/appointments-libreoffice.xlsx', import.meta.url);
const MELBOURNE = '1 Collins Street, Melbourne VIC 3000';
const CARLTON = '12 Lygon Street, Carlton VIC 3053';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

interface Accepted {
  message: string;
  task_id: string;
  background_task_uuid: string;
  status: string;
}

interface AppointmentResults {
  upserted: number;
  excluded: number;
  excluded_appointments: { index: number; data: Record<string, unknown>; error_message: string }[];
}

function csv(rows: (string | number)[][]): string {
  return `${rows.map((r) => r.map((c) => (/[",\r\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',')).join('\r\n')}\r\n`;
}

const HEADER = SPEC_APPOINTMENT_FILE_COLUMNS;

describe('POST /api/appointment_schedule/bulk', () => {
  const server = suiteServer(startImportTestServer);

  const record = (extra: Record<string, unknown> = {}) => ({
    tag_name: 'Gate',
    tag_number: '1',
    start_date_time: '2026-03-02 09:00',
    location: MELBOURNE,
    service: 'Plumbing',
    organization_uuid: server.organizationUuid,
    ...extra,
  });

  const syncJson = async (records: unknown[], query = ''): Promise<AppointmentImportResult> => {
    const res = await server.request(`/api/appointment_schedule/bulk?processing_mode=sync${query}`, jsonBody(records));
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as AppointmentImportResult;
  };

  const background = async (init: RequestInit, query = '') => {
    const res = await server.request(`/api/appointment_schedule/bulk${query}`, init);
    assert.equal(res.status, 202, await res.clone().text());
    const accepted = (await res.json()) as Accepted;
    assert.deepEqual(Object.keys(accepted).sort(), ['background_task_uuid', 'message', 'status', 'task_id']);
    assert.equal(accepted.status, 'processing');
    const task = await waitForTask(server, accepted.background_task_uuid);
    return { accepted, task, results: task.results as unknown as AppointmentResults };
  };

  it('JSON, sync: 200 with full appointment objects and the excluded rows (index, data, error_message)', async () => {
    const rows = [
      record({ job_reference_id: 'J-1', duration: 90 }),
      record({ tag_name: '', job_reference_id: 'J-2' }),
      record({ service: 'Juggling', job_reference_id: 'J-3' }),
    ];
    const result = await syncJson(rows);
    assert.deepEqual(Object.keys(result).sort(), ['appointment_schedules_upserted', 'excluded_appointments']);
    const [schedule] = result.appointment_schedules_upserted;
    assert.ok(schedule);
    assert.equal(schedule.start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(schedule.end_date_time, '2026-03-02T10:30:00+11:00');
    assert.equal(schedule.appointment_date, '2026-03-02');
    assert.equal(schedule.type, 'SERVICE');
    assert.deepEqual(
      result.excluded_appointments.map((e) => e.index),
      [1, 2],
    );
    assert.deepEqual(result.excluded_appointments[0]?.data, rows[1]);
    assert.match(result.excluded_appointments[0]?.error_message ?? '', /tag_name is required/);
    assert.match(result.excluded_appointments[1]?.error_message ?? '', /service "Juggling" is not in this organization's service catalog/);
  });

  it('JSON, background (default): 202, then an APPOINTMENT_IMPORT task with {upserted, excluded, excluded_appointments}', async () => {
    const { task, results } = await background(
      jsonBody([record({ job_reference_id: 'B-1' }), record({ duration: '1.5', job_reference_id: 'B-2' })]),
    );
    assert.equal(task.status, 'COMPLETED');
    assert.equal(task.task_type, 'APPOINTMENT_IMPORT');
    assert.equal(task.progress, 100);
    assert.equal(results.upserted, 1);
    assert.equal(results.excluded, 1);
    assert.equal(results.excluded_appointments[0]?.index, 1);
    assert.match(results.excluded_appointments[0]?.error_message ?? '', /duration must be a whole number of minutes/);
  });

  it('CSV upload, sync and background, with organization_uuid as a form field; re-importing changes and duplicates nothing', async () => {
    const file = csv([
      HEADER,
      ['Door', 7, '2026-06-01 08:00', CARLTON, 30, '', 'CLN', '', 'C-1'],
      ['Door', 7, '2026-06-01 10:00', CARLTON, '', 'Cleaning', '', '', ''],
    ]);
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(file, 'jobs.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const first = (await res.json()) as AppointmentImportResult;
    assert.equal(first.appointment_schedules_upserted.length, 2);
    assert.deepEqual(first.excluded_appointments, []);

    const { task, results } = await background(fileUpload(file, 'jobs.csv', { organization_uuid: server.organizationUuid }));
    assert.equal(task.metadata?.filename, 'jobs.csv');
    assert.equal(results.upserted, 2);
    const list = await server.request(
      `/api/appointment_schedule?organization_uuid=${server.organizationUuid}&qr_code_uuid=${first.appointment_schedules_upserted[0]?.qr_code_uuid}`,
    );
    const page = (await list.json()) as { items: AppointmentSchedule[] };
    assert.deepEqual(
      page.items.map((s) => s.updated_on),
      first.appointment_schedules_upserted.map((s) => s.updated_on),
      'unchanged, not duplicated',
    );
  });

  it('a LibreOffice XLSX with real date cells: wall-clock times, the DST rule and a duration across the change', async () => {
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(fs.readFileSync(FIXTURE_XLSX), 'appointments.xlsx', {
        organization_uuid: server.organizationUuid,
        processing_mode: 'sync',
      }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const result = (await res.json()) as AppointmentImportResult;
    const byRef = new Map(result.appointment_schedules_upserted.map((s) => [s.job_reference_id, s]));
    assert.equal(byRef.get('XL-1')?.start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(byRef.get('XL-1')?.duration, 90);
    assert.equal(byRef.get('XL-2')?.start_date_time, '2026-10-04T03:30:00+11:00');
    assert.match(byRef.get('XL-2')?.notes.join(' ') ?? '', /does not exist/);
    assert.equal(byRef.get('XL-3')?.start_date_time, '2026-04-05T02:30:00+11:00');
    assert.equal(byRef.get('XL-3')?.end_date_time, '2026-04-05T03:30:00+10:00');
    assert.match(byRef.get('XL-3')?.notes.join(' ') ?? '', /happens twice/);
    assert.deepEqual(
      result.excluded_appointments.map((e) => e.index),
      [3],
    );
    assert.match(
      result.excluded_appointments[0]?.error_message ?? '',
      /duration must be a whole number of minutes greater than 0, for example 60; the row has "1.5"/,
    );
  });

  it('a JSON file upload works like the JSON body', async () => {
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(JSON.stringify([record({ job_reference_id: 'F-1', tag_number: '9' })]), 'jobs.json', {
        organization_uuid: server.organizationUuid,
        processing_mode: 'sync',
      }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as AppointmentImportResult).appointment_schedules_upserted[0]?.job_reference_id, 'F-1');
  });

  it('an import handler reads renamed columns and names them in row errors; an unknown org_identifier is 400', async () => {
    await saveImportHandler(server, {
      name: 'Field team',
      slug: 'field-team',
      mapping: { 'Job Ref': 'job_reference_id', 'Visit Start': 'start_date_time', Asset: 'tag_name', Site: 'location' },
    });
    const file = csv([
      ['Asset', 'Tag Number', 'Visit Start', 'Site', 'Service', 'Job Ref'],
      ['Pump', 3, '2026-08-03 07:15', MELBOURNE, 'Plumbing', 'H-1'],
      ['Pump', 3, 'tomorrow', MELBOURNE, 'Plumbing', 'H-2'],
    ]);
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(file, 'field.csv', { organization_uuid: server.organizationUuid, org_identifier: 'field-team', processing_mode: 'sync' }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const result = (await res.json()) as AppointmentImportResult;
    assert.deepEqual(
      result.appointment_schedules_upserted.map((s) => [s.job_reference_id, s.start_date_time]),
      [['H-1', '2026-08-03T07:15:00+10:00']],
    );
    assert.match(result.excluded_appointments[0]?.error_message ?? '', /^Visit Start "tomorrow" is not a date and time/);

    const missing = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(
        csv([
          ['Asset', 'Site'],
          ['x', 'y'],
        ]),
        'f.csv',
        { organization_uuid: server.organizationUuid, org_identifier: 'field-team' },
      ),
    );
    assert.equal(missing.status, 400);
    assert.match(
      ((await missing.json()) as ErrorBody).error.message,
      /missing the required columns tag_number, start_date_time \(titled "Visit Start"\)/,
    );

    const unknown = await server.request('/api/appointment_schedule/bulk?org_identifier=nobody', jsonBody([record()]));
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as ErrorBody).error.message, /Unknown org_identifier "nobody".*default, field-team/);
  });

  it('400 with the error contract for a missing body or file, an invalid processing_mode, a missing organization_uuid, an empty array', async () => {
    const cases: [string, RequestInit, RegExp][] = [
      ['', { method: 'POST' }, /no body/],
      ['', fileUpload('', 'x.csv', { organization_uuid: server.organizationUuid }), /file|empty/i],
      ['?processing_mode=later', jsonBody([record()]), /processing_mode must be background or sync/],
      [
        '',
        fileUpload(csv([HEADER, ['a', 1, '2026-03-02 09:00', MELBOURNE, '', 'Plumbing', '', '', '']]), 'x.csv', {}),
        /organization_uuid is required/,
      ],
      ['', jsonBody([]), /empty/],
    ];
    for (const [query, init, message] of cases) {
      const res = await server.request(`/api/appointment_schedule/bulk${query}`, init);
      assert.equal(res.status, 400, `${query} ${message}`);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.error.code, 'VALIDATION_ERROR');
      assert.match(body.error.message, message);
    }
    const form = new FormData();
    form.set('organization_uuid', server.organizationUuid);
    const noFile = await server.request('/api/appointment_schedule/bulk', { method: 'POST', body: form });
    assert.equal(noFile.status, 400);
    assert.match(((await noFile.json()) as ErrorBody).error.message, /No file was uploaded/);
  });

  it('part 7 statuses: 401 without a credential, 403 for a viewer or another organization', async () => {
    const anonymous = await fetch(`${server.url}/api/appointment_schedule/bulk`, jsonBody([record()]));
    assert.equal(anonymous.status, 401);
    const keyRes = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'viewer' }));
    const viewer = (await keyRes.json()) as { api_key: string; api_secret: string };
    const asViewer = await server.request('/api/appointment_schedule/bulk', {
      ...jsonBody([record()]),
      headers: { authorization: bearer(viewer), 'content-type': 'application/json' },
    });
    assert.equal(asViewer.status, 403);
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other' });
    const foreign = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(csv([HEADER, ['Gate', 1, '2026-03-02 09:00', MELBOURNE, '', 'Plumbing', '', '', '']]), 'x.csv', {
        organization_uuid: other.organization_uuid,
      }),
    );
    assert.equal(foreign.status, 403);
  });
});

describe('sync cap and error reports', () => {
  const server = suiteServer(() => startImportTestServer({ imports: { syncRowCap: 3 } }));

  it('sync mode refuses more rows than its cap with a 400 that names the cap and suggests background mode', async () => {
    const rows = Array.from({ length: 4 }, (_, i) => ['Gate', i, '2026-03-02 09:00', MELBOURNE, '', 'Plumbing', '', '', `CAP-${i}`]);
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(csv([HEADER, ...rows]), 'big.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    assert.equal(res.status, 400);
    const body = (await res.json()) as ErrorBody;
    assert.match(body.error.message, /at most 3 rows.*processing_mode=background/);
  });

  it('error report round trip: download the excluded rows (formula-safe), fix them, import the report again', async () => {
    const file = csv([
      HEADER,
      ['Gate', 1, '2026-03-02 09:00', MELBOURNE, '', 'Plumbing', '', '', 'R-1'],
      ['Gate', 1, '2026-03-02 10:00', MELBOURNE, '=1+1', 'Plumbing', '', '', 'R-2'],
      ['Gate', 1, '2026-03-02 11:00', MELBOURNE, '', 'Plumbin', '', '', 'R-3'],
    ]);
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(file, 'jobs.csv', { organization_uuid: server.organizationUuid }),
    );
    const accepted = (await res.json()) as Accepted;
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal((task.results as unknown as AppointmentResults).excluded, 2);

    const report = await server.request(`/api/appointment_schedule/bulk/errors/${task.uuid}?org_identifier=default`);
    assert.equal(report.status, 200);
    assert.match(report.headers.get('content-disposition') ?? '', /attachment/);
    const text = (await report.text()).replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\r\n');
    assert.equal(lines[0], [...HEADER, 'row_number', 'error'].join(','));
    assert.equal(lines.length, 3);
    assert.match(lines[1] ?? '', /^Gate,1,2026-03-02 10:00,"1 Collins Street, Melbourne VIC 3000",'=1\+1,Plumbing,,,R-2,3,/);
    assert.match(lines[2] ?? '', /,R-3,4,"service ""Plumbin"" is not/);

    const fixed = text.replace("'=1+1", '45').replace('Plumbin,', 'Plumbing,');
    const again = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(fixed, 'fixed.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    assert.equal(again.status, 200, await again.clone().text());
    const result = (await again.json()) as AppointmentImportResult;
    assert.deepEqual(result.excluded_appointments, []);
    assert.deepEqual(
      result.appointment_schedules_upserted.map((s) => [s.job_reference_id, s.duration]),
      [
        ['R-2', 45],
        ['R-3', 60],
      ],
    );

    const xlsx = await server.request(`/api/appointment_schedule/bulk/errors/${task.uuid}?format=xlsx`);
    assert.equal(xlsx.status, 200);
    assert.equal((await xlsx.arrayBuffer()).byteLength > 0, true);
  });

  it('404 for an unknown task, another kind of task, or a task that excluded nothing; 400 for an unknown org_identifier', async () => {
    assert.equal((await server.request('/api/appointment_schedule/bulk/errors/00000000-0000-4000-8000-000000000000')).status, 404);
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      jsonBody([{ tag_name: 'A', tag_number: '1', start_date_time: '2026-03-02 09:00', location: MELBOURNE, service: 'Plumbing' }]),
    );
    const task = await waitForTask(server, ((await res.json()) as Accepted).background_task_uuid);
    const none = await server.request(`/api/appointment_schedule/bulk/errors/${task.uuid}`);
    assert.equal(none.status, 404);
    assert.match(((await none.json()) as ErrorBody).error.message, /excluded none/);
    assert.equal((await server.request(`/api/appointment_schedule/bulk/errors/${task.uuid}?org_identifier=nobody`)).status, 400);
    assert.equal((await fetch(`${server.url}/api/appointment_schedule/bulk/errors/${task.uuid}`)).status, 401);
  });
});
