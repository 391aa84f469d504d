import type { Page } from 'playwright-core';
import type { LookShot } from './shot-run.ts';
import { chooseCsvFile, previewCsvFile } from './browser.ts';

/** A QR code CSV with a row that will certainly fail (bad type) and one whose address cannot be located. */
export const SHOT_SITES_CSV = [
  'location,name,type,qr_code_external_reference_id,Colour',
  '"1 Mitchell St, Darwin NT 0800",Darwin depot,SITE,SHOT-1,red',
  '"2 Hay St, Perth WA 6000",Perth office,bad type!,SHOT-2,blue',
  '"1 Nowhere Road, Atlantis ZZ 00000",Lost site,SITE,SHOT-3,green',
  '"12 Smith St, Fitzroy VIC 3065",Fitzroy store,SITE,SHOT-4,red',
  '"7 Knuckey St, Darwin NT 0800",Knuckey office,SITE,SHOT-5,blue',
].join('\r\n');

/** Screenshots of the Imports page (preview, result, missing column) and the QR codes page (list, form error). */
export async function importShots(page: Page, baseUrl: string, shot: LookShot): Promise<void> {
  await page.goto(`${baseUrl}/imports`);
  await previewCsvFile(page, 'sites.csv', SHOT_SITES_CSV);
  await shot('state-imports-preview', true);
  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-imports-result');
  await shot('state-imports-result-full', true);
  await page.getByRole('heading', { name: '3. Send' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-imports-sent');
  await page.getByRole('link', { name: 'Task page' }).click();
  await page.getByRole('heading', { name: 'Excluded rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.getByRole('button', { name: 'Import the fixed file' }).waitFor();
  await shot('state-task-import-follow-up');
  await page.goto(`${baseUrl}/imports`);
  await chooseCsvFile(page, 'no-location.csv', 'name,suburb\r\nDepot,Darwin\r\n');
  await page.getByRole('alert').filter({ hasText: 'no location column' }).waitFor();
  await shot('state-imports-missing-column', true);
  await page.goto(`${baseUrl}/qrcodes`);
  await page.getByRole('table', { name: 'QR codes' }).waitFor();
  await shot('state-qrcodes-list');
  await page.getByRole('button', { name: 'New QR code' }).click();
  await page.getByRole('button', { name: 'Create QR code' }).click();
  await page.getByText('Location is required.').waitFor();
  await shot('state-qrcodes-form-required');
  await page.getByLabel('Address (location)').fill('1 Nowhere Road, Atlantis ZZ 00000');
  await page.getByRole('button', { name: 'Create QR code' }).click();
  await page.locator('.field-problem').first().waitFor();
  await shot('state-qrcodes-form-error');
}
