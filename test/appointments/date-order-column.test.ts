/**
 * Issue 39 point 8 through the API: a column's date order is decided once, from the organization's
 * setting unless the file proves the other order (a value only it can read, none only the other
 * can); the preview, the dry run, the sync answer and the task's results say which order was read
 * and why, and every row whose date reads both ways carries a warning saying how it was read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface DateOrderRead {
  column: string;
  header: string;
  order: string | null;
  source: string;
  evidence: string | null;
  conflicting: boolean;
}
interface Results {
  excluded?: number;
  excluded_appointments: { index: number; error_message: string }[];
  date_orders?: DateOrderRead[];
  warnings?: { index: number; row_number: number; warning: string }[];
}

const WHERE = '"1 Collins Street, Melbourne VIC 3000"';
const csv = (starts: string[]) =>
  ['tag_name,tag_number,start_date_time,location,service', ...starts.map((start, i) => `Gate,D-${i},${start},${WHERE},Cleaning`)].join(
    '\r\n',
  );

/** One month-first-only value among ambiguous ones: the file proves month first. */
const PROVES_MONTH_FIRST = csv(['02/12/2026 09:00', '12/13/2026 09:00', '2026-03-02 09:00']);
/** Values only day first reads and one only month first reads: the file proves nothing, the setting decides. */
const DISAGREES = csv(['02/12/2026 09:00', '12/13/2026 09:00', '25/03/2026 09:00']);

const MONTH_FIRST_WARNING =
  'start_date_time: "02/12/2026 09:00" was read month first (MM/DD/YYYY) as 12 February 2026, because "12/13/2026 09:00" in this column can only be read that way; read day first (DD/MM/YYYY) it would be 2 December 2026.';

describe('A date column is read in one order, said in every result', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;
  const dayFirst = async () => {
    const res = await server.request('/api/settings', {
      ...jsonBody({ organization_uuid: org(), date_order: 'day_first' }),
      method: 'PATCH',
    });
    assert.equal(res.status, 200);
  };
  const upload = (content: string, fields: Record<string, string>) =>
    server.request('/api/appointment_schedule/bulk', fileUpload(content, 'visits.csv', { organization_uuid: org(), ...fields }));

  it('a file that proves month first in a day-first organization: read month first, said and warned everywhere', async () => {
    await dayFirst();
    const preview = await server.request(
      '/api/imports/preview',
      fileUpload(PROVES_MONTH_FIRST, 'visits.csv', { kind: 'appointments', organization_uuid: org() }),
    );
    const body = (await preview.json()) as { date_orders: DateOrderRead[]; rows: { warnings: string[]; problems: string[] }[] };
    const read: DateOrderRead = {
      column: 'start_date_time',
      header: 'start_date_time',
      order: 'month_first',
      source: 'file',
      evidence: '12/13/2026 09:00',
      conflicting: false,
    };
    assert.deepEqual(body.date_orders, [read]);
    assert.deepEqual(
      body.rows.map((r) => [r.problems, r.warnings]),
      [
        [[], [MONTH_FIRST_WARNING]],
        [[], []],
        [[], []],
      ],
    );

    const dry = await upload(PROVES_MONTH_FIRST, { dry_run: 'true' });
    assert.equal(dry.status, 200, await dry.clone().text());
    const dryBody = (await dry.json()) as Results;
    assert.deepEqual(dryBody.date_orders, [read]);
    assert.deepEqual(dryBody.warnings, [{ index: 0, row_number: 2, warning: MONTH_FIRST_WARNING }]);

    const sync = await upload(PROVES_MONTH_FIRST, { processing_mode: 'sync', dry_run: 'true' });
    const syncBody = (await sync.json()) as Results & { appointment_schedules_upserted: { start_date_time: string }[] };
    assert.deepEqual(syncBody.date_orders, [read]);
    assert.deepEqual(syncBody.warnings, [{ index: 0, row_number: 2, warning: MONTH_FIRST_WARNING }]);
    assert.deepEqual(
      syncBody.appointment_schedules_upserted.map((s) => s.start_date_time.slice(0, 16)),
      ['2026-02-12T09:00', '2026-12-13T09:00', '2026-03-02T09:00'],
    );

    const accepted = await upload(PROVES_MONTH_FIRST, {});
    assert.equal(accepted.status, 202);
    const task = await waitForTask(server, ((await accepted.json()) as { background_task_uuid: string }).background_task_uuid);
    const results = task.results as unknown as Results;
    assert.deepEqual(results.date_orders, [read]);
    assert.deepEqual(results.warnings, [{ index: 0, row_number: 2, warning: MONTH_FIRST_WARNING }]);

    const imported = (await (await upload(PROVES_MONTH_FIRST, { processing_mode: 'sync' })).json()) as Results;
    assert.deepEqual(imported.date_orders, [read]);
    assert.deepEqual(imported.warnings, [{ index: 0, row_number: 2, warning: MONTH_FIRST_WARNING }]);
  });

  it("values that disagree prove nothing: the organization's day first, the month-first-only row excluded", async () => {
    await dayFirst();
    const res = await upload(DISAGREES, { processing_mode: 'sync', dry_run: 'true' });
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as Results;
    assert.deepEqual(body.date_orders, [
      {
        column: 'start_date_time',
        header: 'start_date_time',
        order: 'day_first',
        source: 'setting',
        evidence: null,
        conflicting: true,
      },
    ]);
    assert.deepEqual(body.warnings, [
      {
        index: 0,
        row_number: 2,
        warning:
          'start_date_time: "02/12/2026 09:00" was read day first (DD/MM/YYYY) as 2 December 2026, the organization\'s date order (Settings), as this column\'s values disagree; read month first (MM/DD/YYYY) it would be 12 February 2026.',
      },
    ]);
    assert.deepEqual(
      body.excluded_appointments.map((e) => e.index),
      [1],
    );
    assert.match(body.excluded_appointments[0]?.error_message ?? '', /"12\/13\/2026 09:00" is not a real date and time read day first/);
  });

  it('a file of year-month-day dates gets no date_orders and no warning', async () => {
    const res = await upload(csv(['2026-03-02 09:00']), { processing_mode: 'sync', dry_run: 'true' });
    const body = (await res.json()) as Results;
    assert.equal(body.date_orders, undefined);
    assert.equal(body.warnings, undefined);
  });
});
