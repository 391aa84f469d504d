/**
 * The Appointments section (schedule, services, import handlers) and the import handler select
 * of the Imports page, in Debian's Chromium against a real server.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ensureRendererBuild } from '../../renderer/scripts/build.ts';
import { createAppointmentImporter } from '../../server/appointments/importer.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import type { AppointmentSchedule } from '../../server/appointments/schemas.ts';
import { loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { browserUnavailable, type GuiPage, launchBrowser, openPage, chooseCsvFile } from './support/browser.ts';
import { startImportHandlerForm } from './support/import-handler-form.ts';
import { SPEC_APPOINTMENT_COLUMNS } from '../support/spec-columns.ts';

const skip = browserUnavailable();

describe('Appointments, services and import handlers in Chromium', { skip: skip ?? false }, () => {
  let server: TestServer;
  let browser: Browser;
  let schedules: AppointmentSchedule[];
  const pages: GuiPage[] = [];

  before(async () => {
    await ensureRendererBuild({ quiet: true });
    server = await startTestServer();
    // 30 appointments through the importer's own batch upsert: tags 1–2 in Melbourne, tag 3 in Perth (JOB-010, JOB-020), one a day from 2 March, the last across the end of daylight saving.
    const importer = createAppointmentImporter(server.ctx.db, {
      organizationUuid: server.organizationUuid,
      geocoder: loadGeocoder(),
      collectSchedules: true,
    });
    const rows = Array.from({ length: 30 }, (_, i) => {
      const day = String(2 + i).padStart(2, '0');
      const perth = i === 9 || i === 19;
      return {
        index: i,
        data: {
          tag_name: 'Gate',
          tag_number: perth ? '3' : String(1 + (i % 2)),
          location: perth ? '2 Hay St, Perth WA 6000' : '1 Collins Street, Melbourne VIC 3000',
          start_date_time: i < 29 ? `2026-03-${day} 09:00` : '2026-04-05 01:30',
          duration: i === 0 ? 90 : i === 29 ? 120 : 60,
          service: i % 3 === 0 ? 'Cleaning' : 'Plumbing',
          job_reference_id: `JOB-${String(i + 1).padStart(3, '0')}`,
        },
      };
    });
    const result = server.ctx.db.sqlite.transaction(() => importer.importBatch(rows))();
    assert.deepEqual(result.excluded, []);
    schedules = result.schedules;
    browser = await launchBrowser();
  });

  after(async () => {
    for (const gui of pages) {
      const bad = gui.problems.filter((p) => p.startsWith('page error') || p.includes('CSP violation'));
      assert.deepEqual(bad, [], 'no script errors and no Content-Security-Policy violations');
    }
    await browser?.close();
    await server?.stop();
  });

  async function signedInPage(path: string): Promise<Page> {
    const gui = await openPage(browser);
    pages.push(gui);
    const c = server.credentials;
    assert.ok(c);
    await gui.page.goto(`${server.url}${path}#key=${c.api_key}:${c.api_secret}`);
    await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
    return gui.page;
  }

  const rowTexts = async (page: Page) => page.getByRole('table', { name: 'Appointments' }).locator('tbody tr').allInnerTexts();
  const summary = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).getByRole('status');

  test('the schedule: times with their offsets, pages, and filters by reference, dates and QR code', async () => {
    const page = await signedInPage('/appointments');
    await page.getByRole('heading', { name: 'Appointments', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Appointments' }).waitFor();
    assert.equal(await summary(page).innerText(), '1–25 of 30 appointments');
    const first = await rowTexts(page);
    assert.equal(first.length, 25);
    assert.match(
      first[0] ?? '',
      /2026-03-02\s+1 Collins Street, Melbourne VIC 3000\s+QR code [0-9a-f]{8}\s+09:00 UTC\+11:00\s+Australia\/Melbourne\s+10:30 UTC\+11:00\s+1 h 30 min\s+Cleaning\s+JOB-001/,
    );

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('26–30 of 30 appointments').waitFor();
    const second = await rowTexts(page);
    assert.equal(second.length, 5);
    // 5 April 01:30 in Melbourne, two hours: daylight saving ends at 03:00 in between, so the end has +10:00.
    assert.match(second[4] ?? '', /2026-04-05\s+[^\n]+\s+QR code [0-9a-f]{8}\s+01:30 UTC\+11:00\s+Australia\/Melbourne\s+02:30 UTC\+10:00/);
    assert.match(page.url(), /page=2/);

    await page.getByLabel('Job reference').fill('JOB-010');
    await page.getByText('1–1 of 1 appointment').waitFor();
    const perth = await rowTexts(page);
    assert.match(
      perth[0] ?? '',
      /2026-03-11\s+[^\n]+\s+QR code [0-9a-f]{8}\s+09:00 UTC\+08:00\s+Australia\/Perth/,
      'a new filter starts at its first page; Perth shows +08:00',
    );

    await page.getByLabel('Job reference').fill('');
    await page.getByLabel('From').fill('2026-03-10');
    await page.getByLabel('To').fill('2026-03-12');
    await page.getByText('1–3 of 3 appointments').waitFor();
    assert.deepEqual(
      (await rowTexts(page)).map((t) => /JOB-\d+/.exec(t)?.[0]),
      ['JOB-009', 'JOB-010', 'JOB-011'],
    );

    await page.getByLabel('From').fill('2026-03-10T09:00');
    const problem = page.locator('#appointment-filter-from-problem');
    await problem.waitFor();
    assert.match(await problem.innerText(), /use a date \(2026-03-02\) or a date and time with an offset/);
    assert.equal(await page.getByLabel('From').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('From').fill('');
    await page.getByLabel('To').fill('');
    const perthSchedule = schedules.find((s) => s.job_reference_id === 'JOB-010');
    assert.ok(perthSchedule);
    await page.getByLabel('QR code uuid').fill(perthSchedule.qr_code_uuid);
    await page.getByText('1–2 of 2 appointments').waitFor();
    assert.deepEqual(
      (await rowTexts(page)).map((t) => /JOB-\d+/.exec(t)?.[0]),
      ['JOB-010', 'JOB-020'],
    );

    await page.getByText('Show curl', { exact: true }).click();
    assert.match(
      await page.getByLabel('curl command').innerText(),
      new RegExp(`/api/appointment_schedule\\?organization_uuid=${server.organizationUuid}.*qr_code_uuid=${perthSchedule.qr_code_uuid}`),
    );

    await page.getByLabel('QR code uuid').fill('no-such-qr-code');
    await page.getByRole('heading', { name: 'No appointment matches' }).waitFor();
  });

  test('no appointments: the empty state points to the Imports page and the template', async () => {
    const credential = await createOrganization(server.ctx.db.kysely, { name: 'Empty Appointments Org' });
    const gui = await openPage(browser);
    pages.push(gui);
    await gui.page.goto(`${server.url}/appointments#key=${credential.api_key}:${credential.api_secret}`);
    await gui.page.getByRole('heading', { name: 'No appointments yet' }).waitFor();
    await gui.page.getByRole('link', { name: 'Imports' }).last().waitFor();
    const download = gui.page.waitForEvent('download');
    await gui.page.getByRole('button', { name: 'Download the appointment template' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'appointment_schedule_template.csv');
    const saved = await file.path();
    const text = fs.readFileSync(saved, 'utf8');
    assert.match(
      text,
      /^tag_name,tag_number,start_date_time,location,duration,service,service_code,timezone_name,job_reference_id,organization_uuid/,
    );
  });
  test('services: create with categories, a duplicate name marked at the name field, edit, delete', async () => {
    const page = await signedInPage('/appointments/services');
    const table = page.getByRole('table', { name: 'Services' });
    await table.getByRole('row').filter({ hasText: 'Plumbing' }).waitFor();
    assert.match(await table.getByRole('row').filter({ hasText: 'Plumbing' }).innerText(), /PLB\s+Maintenance\s*Water/);

    await page.getByRole('button', { name: 'New service' }).click();
    const form = page.getByRole('form', { name: 'New service' });
    await form.getByLabel('Name').fill('plumbing');
    await form.getByLabel('Categories').fill('Outdoor');
    await form.getByRole('button', { name: 'Create service' }).click();
    const nameProblem = form.locator('.field-problem');
    await nameProblem.waitFor();
    assert.match(await nameProblem.innerText(), /another service already has the name "Plumbing"/);
    assert.equal(await form.getByLabel('Name').getAttribute('aria-invalid'), 'true');
    assert.equal(await form.getByLabel('Code').getAttribute('aria-invalid'), null, 'only the field that clashed is marked');
    assert.match(await form.getByRole('alert').innerText(), /See the field marked above/);

    await form.getByText('Show curl').click();
    assert.match(await form.getByLabel('curl command').innerText(), /-X POST .*\/api\/services/s);
    await form.getByLabel('Name').fill('Window Cleaning');
    await form.getByLabel('Code').fill('WIN');
    await form.getByLabel('Categories').fill('Facilities, Outdoor');
    await form.getByRole('button', { name: 'Create service' }).click();
    await page.getByRole('status').filter({ hasText: 'Created the service Window Cleaning.' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: 'Window Cleaning' });
    assert.match(await row.innerText(), /WIN\s+Facilities\s*Outdoor/);

    await page.getByRole('button', { name: 'Edit Window Cleaning' }).click();
    const edit = page.getByRole('form', { name: 'Edit Window Cleaning' });
    await edit.getByLabel('Name').fill('Window and Gutter Cleaning');
    await edit.getByLabel('Code').fill('');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved the service Window and Gutter Cleaning.' }).waitFor();
    const listed = (await (await server.request(`/api/services?organization_uuid=${server.organizationUuid}&search=gutter`)).json()) as {
      items: { name: string; code: string | null; categories: { name: string }[] }[];
    };
    assert.deepEqual(
      listed.items.map((s) => [s.name, s.code, s.categories.map((c) => c.name)]),
      [['Window and Gutter Cleaning', null, ['Facilities', 'Outdoor']]],
    );

    await page.getByRole('button', { name: 'Delete Window and Gutter Cleaning' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete service' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted the service Window and Gutter Cleaning.' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'Gutter' }).waitFor({ state: 'detached' });
    assert.equal(await table.getByRole('row').filter({ hasText: 'Plumbing' }).count(), 1, 'the other services stay');
  });

  test('import handlers: mapping rows, a taken slug marked at the slug field, edit, delete, and the select on the Imports page', async () => {
    const page = await signedInPage('/appointments/import-handlers');
    await page.getByRole('heading', { name: 'No import handlers yet' }).waitFor();
    const form = await startImportHandlerForm(page, 'Acme job export', 'acme-jobs', 'Job Ref');
    await form.getByLabel('Appointment field, row 1').selectOption('job_reference_id');
    await form.getByRole('button', { name: 'Add a column' }).click();
    await form.getByLabel('Column title in your file, row 2').fill('Site');
    const options = await form.getByLabel('Appointment field, row 2').locator('option').allInnerTexts();
    assert.deepEqual(options.slice(1), SPEC_APPOINTMENT_COLUMNS, 'the fields of the service contract');
    await form.getByLabel('Appointment field, row 2').selectOption('location');
    await form.getByRole('button', { name: 'Create import handler' }).click();
    await page.getByRole('status').filter({ hasText: 'Created the import handler Acme job export (org_identifier acme-jobs).' }).waitFor();
    const table = page.getByRole('table', { name: 'Import handlers' });
    assert.match(
      await table.getByRole('row').filter({ hasText: 'acme-jobs' }).innerText(),
      /Acme job export\s+acme-jobs\s+“Job Ref” → job_reference_id\s*“Site” → location/,
    );

    // A second handler with the same slug: refused, the problem at the slug field.
    const second = await startImportHandlerForm(page, 'Field team', 'acme-jobs', 'Tag');
    await second.getByLabel('Appointment field, row 1').selectOption('tag_name');
    await second.getByRole('button', { name: 'Create import handler' }).click();
    const slugProblem = second.locator('.field-problem');
    await slugProblem.waitFor();
    assert.match(await slugProblem.innerText(), /"acme-jobs" is already used by the handler "Acme job export"/);
    assert.equal(await second.getByLabel('Slug (org_identifier)').getAttribute('aria-invalid'), 'true');
    await second.getByLabel('Slug (org_identifier)').fill('');
    await second.getByRole('button', { name: 'Create import handler' }).click();
    await page.getByRole('status').filter({ hasText: 'Created the import handler Field team (org_identifier field-team).' }).waitFor();

    await page.getByRole('button', { name: 'Edit Acme job export' }).click();
    const edit = page.getByRole('form', { name: 'Edit Acme job export' });
    assert.equal(await edit.getByLabel('Column title in your file, row 2').inputValue(), 'Site');
    await edit.getByRole('button', { name: 'Remove row 2' }).click();
    await edit.getByLabel('Column title in your file, row 1').fill('Job Number');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved the import handler Acme job export' }).waitFor();
    const saved = (await (await server.request(`/api/import-handlers?organization_uuid=${server.organizationUuid}`)).json()) as {
      items: { slug: string; mapping: Record<string, string> }[];
    };
    assert.deepEqual(saved.items.find((h) => h.slug === 'acme-jobs')?.mapping, { 'Job Number': 'job_reference_id' });

    await page.getByRole('button', { name: 'Delete Field team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete import handler' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted the import handler Field team.' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'field-team' }).waitFor({ state: 'detached' });
    assert.equal(await table.getByRole('row').filter({ hasText: 'acme-jobs' }).count(), 1);

    // The Imports page offers default and the saved slug for appointments, and sends the choice.
    await page.getByRole('link', { name: 'Imports', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    assert.equal(await page.getByLabel('Import handler (org_identifier)').count(), 0, 'QR code imports read no handler');
    await page.getByRole('radio', { name: 'Appointments' }).check();
    const select = page.getByLabel('Import handler (org_identifier)');
    await select.locator('option', { hasText: 'acme-jobs' }).waitFor({ state: 'attached' });
    assert.deepEqual(await select.locator('option').evaluateAll((els) => els.map((e) => e.getAttribute('value'))), [
      'default',
      'acme-jobs',
    ]);
    await select.selectOption('acme-jobs');
    assert.match(await page.getByText(/Reads “Job Number” as job_reference_id/).innerText(), /other columns by their field names/);
    await chooseCsvFile(
      page,
      'jobs.csv',
      'Tag,Number,Start,Site,Job Number\r\nGate,1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",J1\r\n',
    );
    const check = page.getByRole('region', { name: '2. Check before sending' });
    // The preview reads the file through the handler: Job Number is matched, the other titles are not field names, so the row will fail.
    await check
      .getByText(/Will fail/)
      .first()
      .waitFor();
    assert.match(await check.innerText(), /Job Number/);
    await check.getByText('Show curl for the preview').click();
    assert.match(
      await check.getByLabel('curl command').innerText(),
      /\/api\/imports\/preview.*-F 'kind=appointments'.*-F 'org_identifier=acme-jobs'/s,
    );
    const send = page.getByRole('region', { name: '3. Send' });
    await send.getByText('Show curl for the import').click();
    assert.match(
      await send.getByLabel('curl command').innerText(),
      /\/api\/appointment_schedule\/bulk.*-F 'processing_mode=background'.*-F 'org_identifier=acme-jobs'/s,
    );
    await select.selectOption('default');
    assert.doesNotMatch(await send.getByLabel('curl command').innerText(), /org_identifier/, 'default sends no org_identifier');
  });
});
