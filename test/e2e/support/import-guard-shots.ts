import type { Page } from 'playwright-core';
import { chooseCsvFile, chooseCsvFileThrough } from './browser.ts';

/** An appointments file: a start that happens twice in Melbourne, a postcode not Carlton's, a start that is no date. */
export const SHOT_VISITS_CSV = [
  'tag_name,tag_number,start_date_time,location,duration,service',
  'Gate,D-1,2026-04-05 02:30,"1 Collins Street, Melbourne VIC 3000, Australia",60,Cleaning',
  'Gate,D-2,2026-03-02 10:00,"Carlton VIC 9999",60,Cleaning',
  'Gate,D-3,next tuesday,"1 Collins Street, Melbourne VIC 3000, Australia",60,Cleaning',
  'Gate,D-4,2026-03-03 09:00,"12 Smith St, Fitzroy VIC 3065, Australia",45,Cleaning',
].join('\r\n');

/** QR codes with rows that will be excluded: an address nowhere, a bad type. */
export const SHOT_GUARD_SITES_CSV = [
  'location,name,type,qr_code_external_reference_id',
  '"1 Mitchell St, Darwin NT 0800",Darwin depot,SITE,DOC-1',
  '"1 Nowhere Road, Atlantis ZZ 00000",Lost site,SITE,DOC-2',
  '"2 Hay St, Perth WA 6000",Perth office,bad type!,DOC-3',
  '"12 Smith St, Fitzroy VIC 3065",Fitzroy store,SITE,DOC-4',
].join('\r\n');

const SHOT_FIXED_CSV = [
  'location,name,type,qr_code_external_reference_id,row_number,error',
  '"3 Cavenagh St, Darwin NT 0800",Lost site,SITE,DOC-2,3,fixed',
  '"2 Hay St, Perth WA 6000",Perth office,SITE,DOC-3,4,fixed',
].join('\r\n');

/**
 * The Imports page's guardrails as a first-time field admin meets them: a file of the other kind,
 * a preview with warnings, the result with its warnings and excluded rows, and a fixed file
 * previewed before it is sent. `shot(name)` saves the window as it is.
 */
export async function importGuardShots(page: Page, baseUrl: string, shot: (name: string) => Promise<unknown>): Promise<void> {
  const firstRows = () => page.getByRole('table', { name: 'First rows of the file' }).waitFor();
  await page.goto(`${baseUrl}/imports`);
  await chooseCsvFile(page, 'visits.csv', SHOT_VISITS_CSV);
  await page.getByRole('alert', { name: 'Wrong kind of file?' }).waitFor();
  await firstRows();
  await page.getByRole('heading', { name: '2. Check before sending' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('imports-wrong-kind');
  await page.getByRole('button', { name: 'Switch to Appointments' }).click();
  await firstRows();
  await page.getByRole('heading', { name: '2. Check before sending' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('imports-preview-warnings');
  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('imports-result-warnings');

  await page.goto(`${baseUrl}/imports`);
  await chooseCsvFile(page, 'sites.csv', SHOT_GUARD_SITES_CSV);
  await firstRows();
  await shot('imports-first-screen');
  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  await page.getByRole('searchbox', { name: 'Find in excluded rows' }).fill('DOC-3');
  await page.getByRole('region', { name: 'Excluded row 4' }).waitFor();
  await page.getByRole('heading', { name: 'Excluded rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('imports-excluded-find');
  await page.getByRole('searchbox', { name: 'Find in excluded rows' }).fill('');
  await chooseCsvFileThrough(page, 'Import the fixed file', 'sites-fixed.csv', SHOT_FIXED_CSV);
  await firstRows();
  await page.getByRole('heading', { name: '2. Check before sending' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('imports-fixed-file-preview');
}
