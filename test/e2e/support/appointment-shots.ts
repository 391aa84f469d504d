import type { Page } from 'playwright-core';
import { startImportHandlerForm } from './import-handler-form.ts';
import { chooseCsvFile } from './browser.ts';
import type { LookShot } from './shot-run.ts';
import { createAppointmentImporter } from '../../../server/appointments/importer.ts';
import { loadGeocoder } from '../../../server/geocoding/offline-geocoder.ts';
import { type TestServer } from '../../support/server.ts';
import { saveImportHandler } from '../../support/import-handlers.ts';

/** Appointments for the screenshots: a month in Melbourne and Perth, the last across the end of daylight saving; one import handler. */
export async function seedAppointmentShots(server: TestServer): Promise<void> {
  const importer = createAppointmentImporter(server.ctx.db, { organizationUuid: server.organizationUuid, geocoder: loadGeocoder() });
  const services = ['Plumbing', 'Electrical Inspection', 'Cleaning', 'Garden Maintenance'];
  const rows = Array.from({ length: 40 }, (_, i) => {
    const perth = i % 4 === 3;
    return {
      index: i,
      data: {
        tag_name: perth ? 'Office' : 'Gate',
        tag_number: String(1 + (i % 3)),
        location: perth ? '2 Hay St, Perth WA 6000' : '1 Collins Street, Melbourne VIC 3000',
        start_date_time:
          i === 39 ? '2026-04-05 01:30' : `2026-03-${String(2 + Math.floor(i / 2)).padStart(2, '0')} ${i % 2 ? '14:00' : '08:30'}`,
        duration: i === 39 ? 120 : [60, 90, 45, 30][i % 4],
        service: services[i % services.length],
        job_reference_id: i % 5 === 4 ? '' : `WO-2026-${String(1000 + i)}`,
      },
    };
  });
  server.ctx.db.sqlite.transaction(() => importer.importBatch(rows))();
  await saveImportHandler(server, {
    name: 'Acme job export',
    slug: 'acme-jobs',
    mapping: { 'Job Ref': 'job_reference_id', Site: 'location', 'Visit start': 'start_date_time' },
  });
}

/** The Appointments section's states: filter error, service form clash, handler form, the Imports page's handler select. */
export async function appointmentShots(page: Page, baseUrl: string, shot: LookShot): Promise<void> {
  await page.goto(`${baseUrl}/appointments`);
  await page.getByRole('table', { name: 'Appointments' }).waitFor();
  await shot('appointments-full', true);
  await page.getByLabel('From').fill('2026-03-10T09:00');
  await page.locator('#appointment-filter-from-problem').waitFor();
  await shot('state-appointments-filter-error');
  await page.goto(`${baseUrl}/appointments/services`);
  await page.getByRole('table', { name: 'Services' }).waitFor();
  await shot('appointments-services');
  await page.getByRole('button', { name: 'New service' }).click();
  await page.getByRole('form', { name: 'New service' }).getByLabel('Name').fill('plumbing');
  await page.getByRole('button', { name: 'Create service' }).click();
  await page.locator('.field-problem').first().waitFor();
  await shot('state-services-duplicate');
  await page.goto(`${baseUrl}/appointments/import-handlers`);
  await page.getByRole('table', { name: 'Import handlers' }).waitFor();
  await shot('appointments-import-handlers');
  await page.getByRole('button', { name: 'Edit Acme job export' }).click();
  await page.getByRole('form', { name: 'Edit Acme job export' }).waitFor();
  await shot('state-import-handler-edit', true);
  await page.getByRole('button', { name: 'Cancel' }).click();
  const form = await startImportHandlerForm(page, 'Field team', 'acme-jobs', 'Tag');
  await form.getByRole('button', { name: 'Create import handler' }).click();
  await form.locator('.field-problem').first().waitFor();
  await shot('state-import-handler-errors', true);
  await page.goto(`${baseUrl}/imports`);
  await page.getByRole('radio', { name: 'Appointments' }).check();
  await page.getByLabel('Import handler (org_identifier)').selectOption('acme-jobs');
  await chooseCsvFile(page, 'jobs.csv', 'Job Ref,Site\r\nJ1,"1 Collins Street, Melbourne VIC 3000"\r\n');
  // The preview with the handler's titles (no required column is missing, so no alert: the row itself says what fails).
  await page.getByRole('table', { name: 'First rows of the file' }).waitFor();
  await shot('state-imports-appointment-handler', true);
}
