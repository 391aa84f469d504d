import assert from 'node:assert/strict';
import { VISITS_SHEET_COLUMNS } from '../fixtures/workbench/columns.ts';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';
import { jsonBody } from '../support/server.ts';

/**
 * Files as they come (the sheet, the header row), columns named the way people name them (the
 * mapping field, synonyms, similarity) and dates read per column, on the preview, the dry run and
 * the sync and background imports of both kinds: what is stored, not just the status.
 */

interface Preview {
  headers: string[];
  sheets: { name: string; rows: number }[] | null;
  sheet: string | null;
  header_row: number | null;
  header_row_source: string | null;
  columns: {
    matched: { header: string; column: string }[];
    missing_required: string[];
    unknown: string[];
    matches: { header: string; column: string | null; proposed: string | null; confidence: number; source: string }[];
    questions: { header: string; proposed: string; confidence: number }[];
  };
  saved_mapping: { uuid: string; name: string; slug: string } | null;
  date_orders: { column: string; header: string; order: string | null; source: string; evidence: string | null }[];
  rows: { row_number: number; values: Record<string, unknown>; problems: string[]; notes: string[] }[];
}

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/workbench/${name}`, import.meta.url));
const QR_BOOK = fixture('qr-second-sheet.xlsx');
const VISITS_BOOK = fixture('appointments-second-sheet.xlsx');

/** A CSV with two title rows over the header, and headers a user typed: "Sburb" is only close to suburb. */
const TITLED_CSV = [
  'Acme sites;;;;',
  'Printed 28/11/2026;;;;',
  'Site Name;Street Address;Sburb;State;Postcode',
  'Gate A;1 Lygon Street;Carlton;VIC;3053',
  'Gate B;2 Brunswick Street;Fitzroy;VIC;3065',
].join('\r\n');

describe('the import workbench: sheet, header row, mapping and date order', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;

  const preview = (content: Buffer | string, name: string, fields: Record<string, string> = {}) =>
    server.request('/api/imports/preview', fileUpload(content, name, { kind: 'qrcodes', organization_uuid: org(), ...fields }));
  const ok = async <T = Preview>(res: Response, status = 200): Promise<T> => {
    assert.equal(res.status, status, await res.clone().text());
    return (await res.json()) as T;
  };
  const refused = async (res: Response, path: string, message: RegExp) => {
    assert.equal(res.status, 400, await res.clone().text());
    const { error } = (await res.json()) as { error: { message: string; details?: { path: string }[] } };
    assert.match(error.message, message);
    assert.equal(error.details?.[0]?.path, path, error.message);
  };
  const qrRows = (prefix: string) =>
    server.ctx.db.sqlite
      .prepare(
        "select name, location, address_line_1, suburb, state, postcode from qrcodes where organization_uuid = ? and name like ? || '%' and deleted_on is null order by name",
      )
      .all(org(), prefix) as { name: string; location: string; address_line_1: string; suburb: string; state: string; postcode: string }[];
  const schedules = (reference: string) =>
    server.ctx.db.sqlite
      .prepare(
        'select job_reference_id as ref, start_date_time as start from appointment_schedules where organization_uuid = ? and job_reference_id like ? order by job_reference_id',
      )
      .all(org(), reference) as { ref: string; start: string }[];
  /** Removes the organization's QR codes between imports of the same file (waiting out an import worker's last commit). */
  const clearQrCodes = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        server.ctx.db.sqlite.prepare('delete from qrcodes where organization_uuid = ?').run(org());
        return;
      } catch (error) {
        if (attempt >= 100 || !String(error).includes('locked')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };

  it('previews a workbook whose data is on its second sheet under two title rows, matching the names people use', async () => {
    const body = await ok(await preview(QR_BOOK, 'sites.xlsx'));
    assert.deepEqual(body.sheets, [
      { name: 'Read me', rows: 2 },
      { name: 'Sites', rows: 7 },
    ]);
    assert.equal(body.sheet, 'Sites', 'the first sheet whose header matches the columns');
    assert.equal(body.header_row, 3);
    assert.equal(body.header_row_source, 'found');
    assert.deepEqual(
      body.columns.matches.map((m) => [m.header, m.column, m.source]),
      [
        ['Site Name', 'name', 'synonym'],
        ['Street Address', 'address_line_1', 'synonym'],
        ['Suburb', 'suburb', 'name'],
        ['State', 'state', 'name'],
        ['Postcode', 'postcode', 'name'],
      ],
    );
    assert.deepEqual(body.columns.missing_required, [], 'the location is composed from the parts');
    assert.deepEqual(body.columns.questions, []);
    assert.equal(body.rows[0]?.row_number, 4, 'row numbers are the sheet rows');
    assert.equal(body.rows[0]?.values.Postcode, 800);
    assert.deepEqual(
      body.rows.map((r) => r.problems),
      [[], [], [], []],
    );
  });

  it('reads another sheet or header row when asked, by name or position', async () => {
    const first = await ok(await preview(QR_BOOK, 'sites.xlsx', { sheet: '1' }));
    assert.equal(first.sheet, 'Read me');
    assert.equal(first.header_row, 1);
    assert.equal(first.header_row_source, 'first');
    assert.deepEqual(first.columns.missing_required, ['location']);
    const named = await ok(await preview(QR_BOOK, 'sites.xlsx', { sheet: 'Sites', header_row: '4' }));
    assert.equal(named.header_row, 4);
    assert.equal(named.header_row_source, 'request');
    assert.deepEqual(named.headers, ['Darwin depot', '1 Mitchell Street', 'Darwin', 'NT', '800']);
  });

  it('finds the header row of a CSV under title rows, and asks about a match it is unsure of instead of applying it', async () => {
    const body = await ok(await preview(TITLED_CSV, 'sites.csv'));
    assert.equal(body.sheets, null);
    assert.equal(body.sheet, null);
    assert.equal(body.header_row, 3);
    const sburb = body.columns.matches.find((m) => m.header === 'Sburb');
    assert.equal(sburb?.column, null, 'not applied');
    assert.equal(sburb?.proposed, 'suburb');
    assert.equal(sburb?.source, 'similar');
    assert.ok((sburb?.confidence ?? 1) < 0.8 && (sburb?.confidence ?? 0) > 0.5, String(sburb?.confidence));
    assert.deepEqual(body.columns.questions, [{ header: 'Sburb', proposed: 'suburb', confidence: sburb?.confidence }]);

    const confirmed = await ok(await preview(TITLED_CSV, 'sites.csv', { mapping: JSON.stringify({ Sburb: 'suburb', State: null }) }));
    assert.deepEqual(
      confirmed.columns.matches.map((m) => [m.header, m.column, m.source, m.confidence]),
      [
        ['Site Name', 'name', 'synonym', 0.95],
        ['Street Address', 'address_line_1', 'synonym', 0.95],
        ['Sburb', 'suburb', 'mapping', 1],
        ['State', null, 'mapping', 1],
        ['Postcode', 'postcode', 'name', 1],
      ],
    );
    assert.deepEqual(confirmed.columns.unknown, ['State']);
    assert.deepEqual(confirmed.columns.questions, []);
  });

  it('refuses bad sheet, header_row, mapping and date_order values with a 400 that says what to send', async () => {
    await refused(await preview(QR_BOOK, 'sites.xlsx', { sheet: 'Nope' }), 'sheet', /no sheet named "Nope".*1\. "Read me", 2\. "Sites"/);
    await refused(await preview(QR_BOOK, 'sites.xlsx', { sheet: '3' }), 'sheet', /no sheet 3 \(it has 2\)/);
    await refused(await preview(QR_BOOK, 'sites.xlsx', { sheet: '0' }), 'sheet', /counted from 1/);
    await refused(await preview(QR_BOOK, 'sites.xlsx', { header_row: '40' }), 'header_row', /"Sites" has 7 rows: header_row 40 is beyond/);
    await refused(await preview(TITLED_CSV, 'sites.csv', { header_row: '9' }), 'header_row', /The file has 5 rows: header_row 9/);
    await refused(
      await preview(TITLED_CSV, 'sites.csv', { header_row: 'third' }),
      'header_row',
      /number of the row that holds the column titles/,
    );
    await refused(await preview(TITLED_CSV, 'sites.csv', { sheet: 'Sites' }), 'sheet', /A CSV file has no sheets/);
    await refused(
      await preview(TITLED_CSV, 'sites.csv', { mapping: '{"Sburb": "town"}' }),
      'mapping',
      /"Sburb" to "town", which is not a column of this import\. Use one of location, .*or null to ignore/,
    );
    await refused(
      await preview(TITLED_CSV, 'sites.csv', { mapping: '{Sburb: suburb' }),
      'mapping',
      /mapping is not valid JSON\. Send a JSON object, e\.g\./,
    );
    await refused(await preview(TITLED_CSV, 'sites.csv', { mapping: '["suburb"]' }), 'mapping', /must be a JSON object/);
    await refused(
      await preview(TITLED_CSV, 'sites.csv', { mapping: '{"Sburb": "suburb", "Site Name": "suburb"}' }),
      'mapping',
      /both "Sburb" and "Site Name" to suburb/,
    );
    await refused(
      await preview(TITLED_CSV, 'sites.csv', { date_order: '{"start_date_time": "day_first"}' }),
      'date_order',
      /no date columns/,
    );
    const visits = (fields: Record<string, string>) =>
      server.request(
        '/api/imports/preview',
        fileUpload(VISITS_BOOK, 'visits.xlsx', { kind: 'appointments', organization_uuid: org(), ...fields }),
      );
    await refused(await visits({ date_order: '{"start_date_time": "year_first"}' }), 'date_order', /must be day_first or month_first/);
    await refused(await visits({ date_order: '{"Visit Start": "day_first"}' }), 'date_order', /Its date columns are start_date_time/);
  });

  it('imports the second sheet under title rows: dry run, sync and background, both file endpoints, every row stored', async () => {
    await clearQrCodes();
    const dry = await ok<{ inserted: number; excluded: number; dry_run: boolean }>(
      await server.request(
        '/api/qrcodes/bulk?processing_mode=sync',
        fileUpload(QR_BOOK, 'sites.xlsx', { organization_uuid: org(), dry_run: 'true' }),
      ),
    );
    assert.deepEqual([dry.inserted, dry.excluded, dry.dry_run], [4, 0, true]);
    assert.deepEqual(qrRows(''), [], 'a dry run writes nothing');

    const sync = await ok<{ inserted: number; excluded: number }>(
      await server.request('/api/qrcodes/bulk?processing_mode=sync', fileUpload(QR_BOOK, 'sites.xlsx', { organization_uuid: org() })),
    );
    assert.deepEqual([sync.inserted, sync.excluded], [4, 0]);
    assert.deepEqual(
      qrRows('').map((r) => [r.name, r.location, r.postcode]),
      [
        ['Bondi kiosk', '5 Campbell Parade, Bondi NSW 2026', '2026'],
        ['Carlton office', '12 Smith Street, Carlton VIC 3053', '3053'],
        ['Darwin depot', '1 Mitchell Street, Darwin NT 0800', '0800'],
        ['Subiaco store', '3 Rokeby Road, Subiaco WA 6008', '6008'],
      ],
    );

    await clearQrCodes();
    const accepted = await ok<{ background_task_uuid: string }>(
      await server.request(
        '/api/qrcodes/bulk',
        fileUpload(QR_BOOK, 'sites.xlsx', {
          organization_uuid: org(),
          sheet: 'Sites',
          header_row: '3',
          mapping: '{"Site Name": "qr_code_name", "Suburb": "suburb"}',
        }),
      ),
      202,
    );
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    const stored = server.ctx.db.sqlite
      .prepare('select qr_code_name, suburb from qrcodes where organization_uuid = ? and deleted_on is null order by qr_code_name')
      .all(org());
    assert.deepEqual(stored, [
      { qr_code_name: 'Bondi kiosk', suburb: 'Bondi' },
      { qr_code_name: 'Carlton office', suburb: 'Carlton' },
      { qr_code_name: 'Darwin depot', suburb: 'Darwin' },
      { qr_code_name: 'Subiaco store', suburb: 'Subiaco' },
    ]);

    await clearQrCodes();
    const csvSync = await ok<{ inserted: number; excluded: number }>(
      await server.request(
        '/api/qrcodes/bulk-import',
        fileUpload(TITLED_CSV, 'sites.csv', { organization_uuid: org(), header_row: '3', mapping: '{"Sburb": "suburb"}' }),
      ),
    );
    assert.deepEqual([csvSync.inserted, csvSync.excluded], [2, 0]);
    assert.deepEqual(
      qrRows('Gate').map((r) => [r.name, r.location]),
      [
        ['Gate A', '1 Lygon Street, Carlton VIC 3053'],
        ['Gate B', '2 Brunswick Street, Fitzroy VIC 3065'],
      ],
    );
  });

  it('refuses bad layout fields on the imports too, before any task starts', async () => {
    const upload = (path: string, content: Buffer | string, name: string, fields: Record<string, string>) =>
      server.request(path, fileUpload(content, name, { organization_uuid: org(), ...fields }));
    await refused(await upload('/api/qrcodes/bulk', QR_BOOK, 'sites.xlsx', { sheet: 'Nope' }), 'sheet', /no sheet named "Nope"/);
    await refused(await upload('/api/qrcodes/bulk?processing_mode=sync', QR_BOOK, 'sites.xlsx', { sheet: '9' }), 'sheet', /no sheet 9/);
    await refused(await upload('/api/qrcodes/bulk-import', TITLED_CSV, 'sites.csv', { header_row: '99' }), 'header_row', /header_row 99/);
    await refused(await upload('/api/qrcodes/bulk', TITLED_CSV, 'sites.csv', { mapping: '{"Sburb": "town"}' }), 'mapping', /not a column/);
    await refused(
      await upload('/api/appointment_schedule/bulk', VISITS_BOOK, 'visits.xlsx', { mapping: 'nope' }),
      'mapping',
      /not valid JSON/,
    );
    await refused(
      await upload('/api/appointment_schedule/bulk', VISITS_BOOK, 'visits.xlsx', { header_row: '0' }),
      'header_row',
      /1 or more/,
    );
    await refused(
      await upload('/api/appointment_schedule/bulk', VISITS_BOOK, 'visits.xlsx', { sheet: 'Summary' }),
      'file',
      /missing the required columns tag_name, tag_number, start_date_time, location, service \(or service_code\)/,
    );
    const json = JSON.stringify([{ location: '1 Lygon Street, Carlton VIC 3053' }]);
    await refused(
      await upload('/api/qrcodes/bulk', json, 'sites.json', { sheet: '1' }),
      'sheet',
      /A JSON file has no sheets or header row/,
    );
    await refused(
      await upload('/api/qrcodes/bulk', json, 'sites.json', { header_row: '2' }),
      'header_row',
      /leave sheet and header_row out/,
    );
    const tasks = server.ctx.db.sqlite
      .prepare("select count(*) as n from background_tasks where organization_uuid = ? and status = 'FAILED'")
      .get(org()) as { n: number };
    assert.equal(tasks.n, 0, 'no task was started for a refused request');
  });

  it('previews appointments with each date column read in the order its own values settle', async () => {
    const body = await ok(
      await server.request(
        '/api/imports/preview',
        fileUpload(VISITS_BOOK, 'visits.xlsx', { kind: 'appointments', organization_uuid: org() }),
      ),
    );
    assert.equal(body.sheet, 'Visits');
    assert.equal(body.header_row, 3);
    assert.deepEqual(
      body.columns.matches.map((m) => [m.header, m.column]),
      VISITS_SHEET_COLUMNS,
    );
    assert.deepEqual(body.date_orders, [
      {
        column: 'start_date_time',
        header: 'Visit Start',
        order: 'day_first',
        source: 'file',
        evidence: '25/03/2026 09:00',
        conflicting: false,
      },
    ]);
    assert.match(body.rows[1]?.notes.join(' ') ?? '', /"03\/04\/2026 10:30" read day first .* as 3 April 2026, 10:30/);
    const asked = await ok(
      await server.request(
        '/api/imports/preview',
        fileUpload(VISITS_BOOK, 'visits.xlsx', {
          kind: 'appointments',
          organization_uuid: org(),
          date_order: '{"start_date_time": "month-first"}',
        }),
      ),
    );
    assert.deepEqual(
      asked.date_orders.map((d) => [d.order, d.source]),
      [['month_first', 'request']],
    );
    assert.match(asked.rows[0]?.problems.join(' ') ?? '', /"25\/03\/2026 09:00" is not a real date/);
    assert.match(asked.rows[1]?.notes.join(' ') ?? '', /as 4 March 2026/);
  });

  it('imports appointments from the second sheet with dates read as the file settles them, or as asked: sync, dry run and background', async () => {
    const upload = (query: string, fields: Record<string, string> = {}) =>
      server.request(
        `/api/appointment_schedule/bulk${query}`,
        fileUpload(VISITS_BOOK, 'visits.xlsx', { organization_uuid: org(), ...fields }),
      );
    const dry = await ok<{ appointment_schedules_upserted: unknown[]; excluded_appointments: unknown[] }>(
      await upload('?processing_mode=sync&dry_run=true'),
    );
    assert.deepEqual([dry.appointment_schedules_upserted.length, dry.excluded_appointments.length], [3, 0]);
    assert.deepEqual(schedules('J-%'), [], 'a dry run writes nothing');

    const sync = await ok<{ appointment_schedules_upserted: unknown[]; excluded_appointments: unknown[] }>(
      await upload('?processing_mode=sync'),
    );
    assert.equal(sync.excluded_appointments.length, 0, JSON.stringify(sync.excluded_appointments));
    assert.deepEqual(
      schedules('J-%').map((s) => [s.ref, s.start.slice(0, 16)]),
      [
        ['J-1', '2026-03-25T09:00'],
        ['J-2', '2026-04-03T10:30'],
        ['J-3', '2026-04-05T14:00'],
      ],
    );

    const accepted = await ok<{ background_task_uuid: string }>(
      await upload('', {
        sheet: '2',
        header_row: '3',
        date_order: '{"start_date_time": "month_first"}',
        mapping: JSON.stringify({ 'Job Ref': 'job_reference_id', Tag: 'tag_name' }),
      }),
      202,
    );
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    const results = task.results as {
      upserted: number;
      excluded: number;
      excluded_appointments: { index: number; error_message: string }[];
    };
    assert.deepEqual([results.upserted, results.excluded], [2, 1]);
    assert.match(results.excluded_appointments[0]?.error_message ?? '', /Visit Start "25\/03\/2026 09:00" is not a real date/);
    assert.deepEqual(
      schedules('J-%').map((s) => [s.ref, s.start.slice(0, 16)]),
      [
        ['J-1', '2026-03-25T09:00'],
        ['J-2', '2026-03-04T10:30'],
        ['J-3', '2026-05-04T14:00'],
      ],
    );
  });
  it('saves a confirmed QR code mapping as an import handler and proposes it for the next file with the same headers', async () => {
    const bad = await server.request(
      '/api/import-handlers',
      jsonBody({ organization_uuid: org(), name: 'Wrong', kind: 'qrcodes', mapping: { 'Job Ref': 'job_reference_id' } }),
    );
    await refused(bad, 'body.mapping', /"Job Ref" maps to job_reference_id: it must be one of the QR code import columns: location/);
    const saved = await ok<{ uuid: string; kind: string; slug: string }>(
      await server.request(
        '/api/import-handlers',
        jsonBody({
          organization_uuid: org(),
          name: 'Acme register',
          kind: 'qrcodes',
          mapping: { Sburb: 'suburb', 'Site Name': 'qr_code_name' },
        }),
      ),
      201,
    );
    assert.equal(saved.kind, 'qrcodes');
    const listed = await ok<{ items: { uuid: string }[] }>(
      await server.request(`/api/import-handlers?organization_uuid=${org()}&kind=qrcodes`),
    );
    assert.deepEqual(
      listed.items.map((h) => h.uuid),
      [saved.uuid],
    );
    const appointmentsOnly = await ok<{ items: unknown[] }>(
      await server.request(`/api/import-handlers?organization_uuid=${org()}&kind=appointments`),
    );
    assert.ok(!JSON.stringify(appointmentsOnly.items).includes(saved.uuid));

    const body = await ok(await preview(TITLED_CSV, 'sites.csv'));
    assert.deepEqual(body.saved_mapping, { uuid: saved.uuid, name: 'Acme register', slug: saved.slug });
    assert.deepEqual(body.columns.matches.map((m) => [m.header, m.column, m.source]).slice(0, 3), [
      ['Site Name', 'qr_code_name', 'saved'],
      ['Street Address', 'address_line_1', 'synonym'],
      ['Sburb', 'suburb', 'saved'],
    ]);
    const other = await ok(await preview('Site Name,Street Address,Suburb,Postcode\nX,1 Lygon Street,Carlton,3053\n', 'other.csv'));
    assert.equal(other.saved_mapping, null, 'a header without every title of the mapping gets none');
    const own = await ok(await preview(TITLED_CSV, 'sites.csv', { mapping: '{"Sburb": "suburb"}' }));
    assert.equal(own.saved_mapping, null, "the request's own mapping wins");
    const badUpdate = await server.request(`/api/import-handlers/uuid/${saved.uuid}`, jsonBody({ mapping: { Sburb: 'service' } }, 'PATCH'));
    await refused(badUpdate, 'body.mapping', /does not fit this qrcodes handler: "Sburb" maps to service/);
    await server.request(`/api/import-handlers/uuid/${saved.uuid}`, { method: 'DELETE' });
  });
});
