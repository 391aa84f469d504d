import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { chooseCsvFile } from './browser.ts';
import { VISITS_SHEET_COLUMNS } from '../../fixtures/workbench/columns.ts';

/**
 * The import workbench walked as a field admin does, on the Imports page: a workbook whose data is
 * on its second sheet under two title rows, in the column names the team uses; the sheet picked,
 * the columns matched and confirmed, the first rows previewed, then imported. Shared by the
 * Playwright test (test/e2e/import-workbench.test.ts) and the script that makes the user guide's
 * screenshots (test/e2e/workbench-doc-shots.ts), so the guide shows what the test checks.
 */

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Made by LibreOffice (test/fixtures/workbench/make.ts). */
export const QR_WORKBOOK = new URL('../../fixtures/workbench/qr-second-sheet.xlsx', import.meta.url);
export const VISITS_WORKBOOK = new URL('../../fixtures/workbench/appointments-second-sheet.xlsx', import.meta.url);

export type Shot = (name: string, target?: { element?: string }) => Promise<unknown>;

async function chooseWorkbook(page: Page, file: URL, name: string): Promise<void> {
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name, mimeType: XLSX_TYPE, buffer: fs.readFileSync(file) });
}

/** Asserts that the columns table shows each header's column; the table. */
async function assertColumnsShown(page: Page, expected: readonly (readonly [string, string])[]) {
  const columns = page.getByRole('table', { name: 'Columns of the file and what they fill' });
  for (const [header, column] of expected) {
    assert.equal(await columns.getByLabel(`Column for ${header}`, { exact: true }).inputValue(), column, header);
  }
  return columns;
}

const previewVerdict = (page: Page) => page.getByRole('status', { name: 'Preview verdict' });

/** Scrolls a heading to the top of the window, for a screenshot of what follows it. */
async function scrollTo(page: Page, text: string): Promise<void> {
  await page
    .getByRole('heading', { name: text })
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
}

/** QR codes: sheet, header row, columns confirmed and saved, preview, import. Resolves once the import finished. */
export async function walkQrWorkbook(page: Page, shot: Shot): Promise<void> {
  await chooseWorkbook(page, QR_WORKBOOK, 'acme-sites.xlsx');
  const sheet = page.getByLabel('Sheet', { exact: true });
  await previewVerdict(page).waitFor();
  assert.equal(await sheet.inputValue(), 'Sites', 'the first sheet whose header names the columns');
  assert.equal(await page.getByLabel('Header row').inputValue(), '3', 'found under the two title rows');
  assert.match(await page.locator('.file-layout').innerText(), /found: the first row naming the columns/);
  await scrollTo(page, '2. Check before sending');
  await shot('workbench-qr-1-sheet-and-header-row');

  // Another sheet can be chosen: the "Read me" sheet has no header of the columns.
  await sheet.selectOption('Read me');
  await page.getByRole('alert').filter({ hasText: 'no location column' }).waitFor();
  await page.getByLabel('Sheet', { exact: true }).selectOption('Sites');
  await previewVerdict(page).waitFor();
  assert.equal(await page.getByLabel('Header row').inputValue(), '3');

  const columns = await assertColumnsShown(page, [
    ['Site Name', 'name'],
    ['Street Address', 'address_line_1'],
    ['Suburb', 'suburb'],
    ['State', 'state'],
    ['Postcode', 'postcode'],
  ]);
  assert.match(await columns.innerText(), /95 % · a usual name for it/);
  await scrollTo(page, 'Columns of the file');
  await shot('workbench-qr-2-columns-matched');

  await page.getByRole('button', { name: 'Use these columns' }).click();
  await page.getByRole('button', { name: 'Columns confirmed' }).waitFor();
  await previewVerdict(page).waitFor();
  await page.getByLabel('Save these columns as').fill('Acme site register');
  await page.getByRole('button', { name: 'Save for next time' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved as Acme site register' }).waitFor();
  await scrollTo(page, 'Columns of the file');
  await shot('workbench-qr-3-columns-confirmed');

  assert.match(await previewVerdict(page).innerText(), /The first 4 rows pass every check/);
  await scrollTo(page, 'First rows');
  await shot('workbench-qr-4-first-rows');

  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /4\s+inserted/i);
  await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('workbench-qr-5-imported');
}

/** A CSV whose "Sburb" column is only close to suburb: the page asks, and sends nothing until it is answered. */
export async function walkColumnQuestion(page: Page, shot: Shot): Promise<void> {
  const csv = ['Site Name,Street Address,Sburb,State,Postcode', 'Gate A,1 Lygon Street,Carlton,VIC,3053'].join('\r\n');
  await chooseCsvFile(page, 'gates.csv', csv);
  await previewVerdict(page).waitFor();
  const question = page.getByLabel('Column for Sburb');
  assert.equal(await question.inputValue(), '?', 'not applied silently');
  assert.ok(await page.getByRole('button', { name: 'Start the import' }).isDisabled(), 'nothing is sent until the question is answered');
  await scrollTo(page, 'Columns of the file');
  await shot('workbench-question');
  await question.selectOption('suburb');
  await page.getByRole('button', { name: 'Use these columns' }).click();
  await page.getByRole('button', { name: 'Columns confirmed' }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Start the import' }).isEnabled());
}

/**
 * An appointments CSV whose "Strat Date Time" and "Servce" are near misses (80 and 81 %, close
 * enough for the API to apply): the page shows them as guesses with three values each and sends
 * nothing until the user says yes to each; exact names are not asked about.
 */
export async function walkNearMissMatch(page: Page, shot: Shot): Promise<void> {
  await page.getByRole('radio', { name: 'Appointments' }).check();
  const csv = [
    'Tag Name,Tag Number,Strat Date Time,Location,Duration,Servce',
    'Gate,1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",60,Plumbing',
    'Gate,2,2026-03-03 10:00,"1 Collins Street, Melbourne VIC 3000",30,Plumbing',
    'Gate,3,2026-03-04 11:00,"1 Collins Street, Melbourne VIC 3000",45,Plumbing',
    'Gate,4,2026-03-05 12:00,"1 Collins Street, Melbourne VIC 3000",45,Plumbing',
  ].join('\r\n');
  await chooseCsvFile(page, 'visits.csv', csv);
  await previewVerdict(page).waitFor();
  const columns = page.getByRole('table', { name: 'Columns of the file and what they fill' });
  const start = columns.getByLabel('Column for Strat Date Time', { exact: true });
  assert.equal(await start.inputValue(), '?', 'a guess is asked about, not applied');
  assert.equal(await columns.getByLabel('Column for Servce', { exact: true }).inputValue(), '?');
  assert.equal(
    await columns.getByLabel('Column for Tag Name', { exact: true }).inputValue(),
    'tag_name',
    'an exact name is not asked about',
  );
  const text = await columns.innerText();
  assert.match(text, /Guessed: 80 % · similar spelling \(a guess\) to Start date and time/);
  assert.match(text, /2026-03-02 09:00 · 2026-03-03 10:00 · 2026-03-04 11:00/, 'three values of the column');
  assert.doesNotMatch(text, /2026-03-05 12:00/, 'three values, not more');
  assert.match(await page.getByRole('alert').filter({ hasText: 'similar spelling' }).innerText(), /2 columns were matched/);
  const send = page.getByRole('button', { name: 'Start the import' });
  assert.ok(await send.isDisabled(), 'nothing is sent until the guesses are answered');
  // The question comes before the first rows and the import button.
  const top = async (selector: string) => (await page.locator(selector).boundingBox())?.y ?? Number.NaN;
  assert.ok((await top('.column-mapping')) < (await top('.preview-rows')), 'the columns are asked about above the first rows');
  await scrollTo(page, 'Columns of the file');
  await shot('workbench-near-miss');

  await page.getByRole('button', { name: 'Yes, it is Start date and time' }).click();
  assert.equal(await start.inputValue(), 'start_date_time');
  assert.ok(await send.isDisabled(), 'one guess is still open');
  await page.getByRole('button', { name: 'Yes, it is Service' }).click();
  await page.getByRole('button', { name: 'Use these columns' }).click();
  await page.getByRole('button', { name: 'Columns confirmed' }).waitFor();
  await previewVerdict(page).waitFor();
  assert.match(await columns.innerText(), /100 % · your choice/);
  assert.ok(await send.isEnabled(), 'the import can start once every guess is answered');
}

/** Appointments: the sheet and header row found, the date order settled by the file's own dates, columns confirmed, imported. */
export async function walkAppointmentWorkbook(page: Page, shot: Shot): Promise<void> {
  await page.getByRole('radio', { name: 'Appointments' }).check();
  await chooseWorkbook(page, VISITS_WORKBOOK, 'acme-visits.xlsx');
  await previewVerdict(page).waitFor();
  assert.equal(await page.getByLabel('Sheet', { exact: true }).inputValue(), 'Visits');
  assert.equal(await page.getByLabel('Header row').inputValue(), '3');
  const dates = page.getByLabel('Dates in “Visit Start”');
  assert.equal(await dates.inputValue(), 'day_first');
  assert.match(await page.locator('.file-layout').innerText(), /settled by “25\/03\/2026 09:00” in the file/);
  await assertColumnsShown(page, VISITS_SHEET_COLUMNS);
  assert.match(
    await page.getByRole('table', { name: 'First rows of the file' }).innerText(),
    /read day first \(DD\/MM\/YYYY\) as 3 April 2026, 10:30/,
  );
  await scrollTo(page, '2. Check before sending');
  await shot('workbench-appointments-1-dates');

  await page.getByRole('button', { name: 'Use these columns' }).click();
  await page.getByRole('button', { name: 'Columns confirmed' }).waitFor();
  await previewVerdict(page).waitFor();
  assert.match(await previewVerdict(page).innerText(), /The first 3 rows pass every check/);
  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /3\s+inserted\s+0\s+excluded/i);
  assert.equal(
    await page.getByRole('list', { name: 'How dates were read' }).innerText(),
    'Dates in “Visit Start” were read day first (25/03/2026): the file proves it: “25/03/2026 09:00” can only be read that way.',
  );
  assert.match(
    await page.getByRole('list', { name: 'Import warnings' }).innerText(),
    /Visit Start: "03\/04\/2026 10:30" was read day first \(DD\/MM\/YYYY\) as 3 April 2026, because "25\/03\/2026 09:00" in this column can only be read that way; read month first \(MM\/DD\/YYYY\) it would be 4 March 2026\./,
  );
  await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('workbench-appointments-2-imported');
}
