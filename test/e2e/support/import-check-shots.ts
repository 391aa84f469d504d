import type { Page } from 'playwright-core';
import type { LookShot } from './shot-run.ts';
import { createInbox } from '../../support/inboxes.ts';
import { jsonBody, type TestServer } from '../../support/server.ts';
import { previewCsvFile } from './browser.ts';
import { appointmentsCsv, mixedQrCsv } from './import-check-files.ts';

/** QR codes: the tag Gate 70 given twice. */
const MIXED_QR_CSV = mixedQrCsv(70);
/** Appointments as Excel saves them in Australia (day first). */
const APPOINTMENTS_CSV = appointmentsCsv('S', ['02/12/2026 11:00', '03/12/2026 09:30']);

/** Issue 17 points 3, 6-9: the preview's checks, row problems, appointment results, date order, what a delivery sent, the QR code search. */
export async function importCheckShots(page: Page, server: TestServer, shot: LookShot): Promise<void> {
  const base = server.url;
  await page.goto(`${base}/imports`);
  await previewCsvFile(page, 'mixed-sites.csv', MIXED_QR_CSV);
  await page.getByRole('heading', { name: 'First rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-imports-preview-checks');

  await page.goto(`${base}/imports`);
  await page.getByRole('radio', { name: 'Appointments' }).check();
  await previewCsvFile(page, 'excel-visits.csv', APPOINTMENTS_CSV);
  await page.getByRole('heading', { name: 'First rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-imports-preview-appointments');
  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-imports-appointment-result');
  await page.getByRole('region', { name: /Excluded row/ }).scrollIntoViewIfNeeded();
  await shot('state-imports-appointment-row-problems');

  await page.goto(`${base}/settings`);
  await page.getByRole('heading', { name: 'Date order' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-settings-date-order');

  const inbox = await createInbox(server, { name: 'Shots inbox' });
  const registered = await server.request(
    '/api/webhooks/register',
    jsonBody({ organization_uuid: server.organizationUuid, url: inbox.url, events: ['service_confirmation.check_in'] }),
  );
  const hook = ((await registered.json()) as { uuid: string }).uuid;
  await page.goto(`${base}/webhooks`);
  await page.getByLabel('Find a QR code').fill('Mitchell');
  await page.getByText(/“Mitchell”/).waitFor();
  await page.getByRole('heading', { name: 'Send a test event' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-webhooks-qr-search');
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('region', { name: 'Event sent' }).waitFor();
  await page.goto(`${base}/webhooks/${hook}`);
  const delivery = page.locator('article.delivery').first();
  await delivery.getByText(/What was sent/).waitFor({ timeout: 30_000 });
  await delivery.getByText(/What was sent/).click();
  await delivery.getByText(/What was sent/).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-webhook-sent-request');
  await shot('state-webhook-sent-request-full', true);
}
