/**
 * Appointment imports in Debian's Chromium against a real server with the shipped offline
 * geocoder: a LibreOffice XLSX in background mode watched to completion, and an import through
 * a saved import handler whose error report is fixed and imported again from the task page.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import Papa from 'papaparse';
import type { AppointmentSchedule } from '../../server/appointments/schemas.ts';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { browserUnavailable, chooseCsvFileThrough, previewCsvFile } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';
import { downloadErrorReport } from './support/downloads.ts';
import { saveImportHandler } from '../support/import-handlers.ts';

const skip = browserUnavailable();

/** Written by LibreOffice Calc (test/fixtures/make-libreoffice-workbooks.sh): real date cells, XL-4 has a duration of 1.5. */
const LIBREOFFICE_XLSX = new URL('../fixtures/appointments-libreoffice.xlsx', import.meta.url);
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('Appointment imports in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  const schedules = async (query: string): Promise<AppointmentSchedule[]> => {
    const res = await server.request(`/api/appointment_schedule?organization_uuid=${server.organizationUuid}&per_page=100&${query}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as { items: AppointmentSchedule[] }).items;
  };

  test('an XLSX appointment import in background mode, watched live to completion, with its counts, excluded row and local times', async () => {
    const page = await session.signedInPage('/imports');
    await waitForLive(page);
    await page.getByRole('radio', { name: 'Appointments' }).check();
    await page.getByLabel('Import handler (org_identifier)').selectOption('default');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'march-jobs.xlsx', mimeType: XLSX_TYPE, buffer: fs.readFileSync(LIBREOFFICE_XLSX) });

    // The preview: the file's columns matched to the expected ones and its first rows, dates as the sheet shows them.
    const rows = page.getByRole('table', { name: 'First rows of the file' });
    await rows.waitFor();
    const previewText = await rows.innerText();
    assert.match(previewText, /XL-1/);
    assert.match(previewText, /2026-03-02 09:00/, 'a LibreOffice date cell previews as its wall-clock time');
    assert.equal(await page.getByRole('alert').count(), 0, 'no required column is missing');

    await page.getByRole('radio', { name: /Background/ }).check();
    assert.match(await page.getByText('Import handler:').innerText(), /Import handler: default/);
    await page.getByRole('button', { name: 'Start the import' }).click();

    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await page.locator('[role=progressbar][aria-label="Import progress"][aria-valuenow="100"]').waitFor();
    const counts = await page.getByRole('list', { name: 'Import counts' }).innerText();
    assert.match(counts, /3\s+inserted/);
    assert.doesNotMatch(counts, /upserted/, 'the counts are said once: inserted, not also upserted');
    assert.match(counts, /1\s+excluded/);
    const excluded = page.getByRole('grid', { name: 'Excluded rows' }).or(page.getByRole('table', { name: 'Excluded rows' }));
    const excludedText = await excluded.innerText();
    assert.match(excludedText, /duration must be a whole number of minutes greater than 0, for example 60; the row has "1\.5"/);
    assert.match(excludedText, /XL-4/);

    // The task the page watched is the server's: an APPOINTMENT_IMPORT of the xlsx with the default handler.
    await page.getByRole('link', { name: 'Task page' }).click();
    await page.getByRole('heading', { name: 'Appointment import', level: 1 }).waitFor();
    const taskUuid = /\/tasks\/([0-9a-f-]+)/.exec(page.url())?.[1] ?? '';
    const task = (await (await server.request(`/api/background-tasks/uuid/${taskUuid}`)).json()) as BackgroundTask;
    assert.deepEqual(
      [task.task_type, task.status, task.metadata?.filename, task.metadata?.import_type, task.metadata?.org_identifier],
      ['APPOINTMENT_IMPORT', 'COMPLETED', 'march-jobs.xlsx', 'xlsx', 'default'],
    );

    // The Appointments page shows each at its local time with the offset of that day.
    await page.getByRole('link', { name: 'Appointments', exact: true }).click();
    await page.getByRole('table', { name: 'Appointments' }).waitFor();
    const rowOf = async (reference: string) => {
      await page.getByLabel('Job reference').fill(reference);
      const rows = page.getByRole('table', { name: 'Appointments' }).locator('tbody tr');
      await rows.filter({ hasText: reference }).waitFor();
      await page.getByText('1–1 of 1 appointment').waitFor();
      assert.equal(await rows.count(), 1);
      return rows.first().innerText();
    };
    assert.match(
      await rowOf('XL-1'),
      /2026-03-02\s+1 Collins Street, Melbourne VIC 3000\s+QR code [0-9a-f]{8}\s+09:00 UTC\+11:00\s+Australia\/Melbourne\s+10:30 UTC\+11:00\s+1 h 30 min\s+Plumbing\s+XL-1/,
    );
    // 02:30 on 4 October does not exist in Melbourne (clocks go from 02:00 to 03:00): it becomes 03:30.
    assert.match(
      await rowOf('XL-2'),
      /2026-10-04\s+[^\n]+\s+QR code [0-9a-f]{8}\s+03:30 UTC\+11:00\s+Australia\/Melbourne[\s\S]*does not exist/,
    );
    // 5 April: daylight saving ends at 03:00, so an appointment from 02:30 for two hours ends at 03:30 standard time.
    assert.match(
      await rowOf('XL-3'),
      /2026-04-05\s+[^\n]+\s+QR code [0-9a-f]{8}\s+02:30 UTC\+11:00\s+Australia\/Melbourne\s+03:30 UTC\+10:00\s+[^\t]*happens twice[\s\S]*2 h\s+Pest Control\s+XL-3/,
    );
    assert.deepEqual((await schedules('job_reference_id=XL-4')).length, 0, 'the excluded row wrote nothing');
  });

  test('an appointment import through a saved handler: fix the error report and import it from the task page, through the same handler', async () => {
    await saveImportHandler(server, {
      name: 'Field team',
      slug: 'field-team',
      mapping: { Asset: 'tag_name', 'Visit Start': 'start_date_time', Site: 'location', 'Job Ref': 'job_reference_id' },
    });
    const original = Papa.unparse(
      [
        ['Asset', 'Tag Number', 'Visit Start', 'Site', 'Service', 'Job Ref'],
        ['Pump', 'FT-1', '2026-08-03 07:15', '1 Collins Street, Melbourne VIC 3000', 'Plumbing', 'FT-1'],
        ['Pump', 'FT-2', 'tomorrow morning', '1 Collins Street, Melbourne VIC 3000', 'Plumbing', 'FT-2'],
        ['Pump', 'FT-3', '2026-08-04 09:00', '1 Nowhere Road, Atlantis ZZ 00000', 'Plumbing', '+FT-3'],
        ['Pump', 'FT-4', '2026-08-05 10:00', '20 Brunswick Street, Fitzroy VIC 3065', 'Juggling', 'FT-4'],
      ],
      { newline: '\r\n' },
    );
    const page = await session.signedInPage('/imports');
    await page.getByRole('radio', { name: 'Appointments' }).check();
    await page.getByLabel('Import handler (org_identifier)').selectOption('field-team');
    await previewCsvFile(page, 'field-jobs.csv', original);
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /1\s+inserted[\s\S]*3\s+excluded/);
    // Choosing another handler above afterwards does not change how this import's fixed file is sent.
    await page.getByLabel('Import handler (org_identifier)').selectOption('default');
    await page.getByText('Show curl for importing the fixed file').click();
    assert.match(await page.getByLabel('curl command').last().innerText(), /-F 'org_identifier=field-team'/);

    // Later, from the task page: download the report, fix it as a user would in Excel, import it.
    await page.getByRole('link', { name: 'Task page' }).click();
    await page.getByRole('heading', { name: 'Excluded rows' }).waitFor();
    const firstTask = /\/tasks\/([0-9a-f-]+)/.exec(page.url())?.[1] ?? '';
    const report = await downloadErrorReport(page);
    const header = report[0] ?? [];
    assert.deepEqual(
      header,
      ['Asset', 'Tag Number', 'Visit Start', 'Site', 'Service', 'Job Ref', 'row_number', 'error'],
      "the report keeps the file's own column titles",
    );
    const column = (name: string) => header.indexOf(name);
    const byRef = new Map(report.slice(1).map((r) => [r[column('Job Ref')] ?? '', r]));
    assert.deepEqual([...byRef.keys()], ['FT-2', "'+FT-3", 'FT-4'], 'a cell a spreadsheet would run as a formula comes neutralised');
    assert.match(byRef.get('FT-2')?.[column('error')] ?? '', /^Visit Start "tomorrow morning" is not a date and time/);
    assert.ok(
      String(byRef.get("'+FT-3")?.[column('error')]).startsWith(`${ADDRESS_NOT_LOCATED} `),
      "the spec sentence, then the geocoder's reason",
    );
    assert.match(byRef.get('FT-4')?.[column('error')] ?? '', /service "Juggling" is not in this organization's service catalog/);
    assert.ok(await page.getByText('The fixed file goes through the import handler field-team, like the original').isVisible());

    const fixes: Record<string, [string, string]> = {
      'FT-2': ['Visit Start', '2026-08-04 08:00'],
      "'+FT-3": ['Site', '12 Smith St, Fitzroy VIC 3065'],
      'FT-4': ['Service', 'Cleaning'],
    };
    const fixed = Papa.unparse(
      [
        header,
        ...report.slice(1).map((row) => {
          const [name, value] = fixes[row[column('Job Ref')] ?? ''] ?? ['', ''];
          return row.map((cell, i) => (header[i] === name ? value : cell));
        }),
      ],
      { newline: '\r\n' },
    );
    await chooseCsvFileThrough(page, 'Import the fixed file', 'field-jobs-fixed.csv', fixed);
    // Previewed on the Imports page first, through the same handler, then sent.
    await page.waitForURL((url) => url.pathname === '/imports');
    await page.getByRole('status', { name: 'Preview verdict' }).filter({ hasText: 'The first 3 rows pass' }).waitFor();
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByText('No row was excluded: every row was imported.').waitFor({ timeout: 60_000 });
    const counts = await page
      .getByRole('list', { name: 'Import counts' })
      .or(page.getByRole('list').filter({ hasText: 'inserted' }))
      .first()
      .innerText();
    assert.match(counts, /3\s+inserted[\s\S]*0\s+excluded/);
    await page.getByRole('link', { name: 'the earlier import' }).waitFor();
    assert.match((await page.getByRole('link', { name: 'the earlier import' }).getAttribute('href')) ?? '', new RegExp(firstTask));

    const secondTask =
      /\/tasks\/([0-9a-f-]+)/.exec((await page.getByRole('link', { name: 'Task page' }).getAttribute('href')) ?? '')?.[1] ?? '';
    const task = (await (await server.request(`/api/background-tasks/uuid/${secondTask}`)).json()) as BackgroundTask;
    assert.deepEqual(
      [task.task_type, task.status, task.metadata?.org_identifier, task.metadata?.filename],
      ['APPOINTMENT_IMPORT', 'COMPLETED', 'field-team', 'field-jobs-fixed.csv'],
    );
    const imported = (await schedules('from=2026-08-01&to=2026-08-31')).filter((s) => /FT-/.test(s.job_reference_id ?? ''));
    assert.deepEqual(
      imported.map((s) => [s.job_reference_id, s.start_date_time]).sort(),
      [
        ['+FT-3', '2026-08-04T09:00:00+10:00'],
        ['FT-1', '2026-08-03T07:15:00+10:00'],
        ['FT-2', '2026-08-04T08:00:00+10:00'],
        ['FT-4', '2026-08-05T10:00:00+10:00'],
      ],
      'the fixed rows were imported once each, "+FT-3" exactly as typed',
    );
  });
});
