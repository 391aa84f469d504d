/**
 * Issue 32 (points 1, 3, 5, 6, 8, 9 and the Imports page's layout items of 7) in Chromium at
 * 1280x800 and 800x700, against a real server with the shipped offline geocoder: a file of the
 * other kind is caught, warnings are shown and kept apart from exclusions, excluded rows are found
 * by name, reference or row number, a fixed file is previewed before it is sent, focus stays
 * useful, problems are worded once, and nothing spills sideways.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserUnavailable, chooseCsvFile, chooseCsvFileThrough } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';
import { taskOfResult } from './support/task-of-result.ts';

const skip = browserUnavailable();

const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 700 },
] as const;

/** Appointments: a start that happens twice (clocks go back in Melbourne), a postcode not Carlton's, a start that is no date. */
const appointmentsCsv = (tag: string) =>
  [
    'tag_name,tag_number,start_date_time,location,duration,service',
    `Guard,${tag}-1,2026-04-05 02:30,"1 Collins Street, Melbourne VIC 3000, Australia",60,Cleaning`,
    `Guard,${tag}-2,2026-03-02 10:00,"Carlton VIC 9999",60,Cleaning`,
    `Guard,${tag}-3,next tuesday,"1 Collins Street, Melbourne VIC 3000, Australia",60,Cleaning`,
  ].join('\r\n');

/** QR codes: one good row, then an address nowhere, a bad type and no address at all. */
const sitesCsv = (ref: string) =>
  [
    'location,name,type,qr_code_external_reference_id',
    `"1 Mitchell St, Darwin NT 0800",Depot ${ref},SITE,${ref}-1`,
    `"1 Nowhere Road, Atlantis ZZ 00000",Lost site ${ref},SITE,${ref}-2`,
    `"2 Hay St, Perth WA 6000",Perth office ${ref},bad type!,${ref}-3`,
    `,Blank ${ref},SITE,${ref}-4`,
  ].join('\r\n');

/** Every column the QR code import reads: its column table alone is 16 rows. */
const WIDE_QR_CSV = [
  'location,organization_uuid,type,name,qr_code_name,qr_code_external_reference_id,address_line_1,suburb,state,postcode,country,label,data,tag_name,tag_number,tag_display_name',
  '"12 Smith Street, Carlton VIC 3053",,SITE,Carlton depot,Front gate,WIDE-1,12 Smith Street,Carlton,VIC,3053,Australia,,,,,',
].join('\r\n');

async function assertNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  assert.ok(overflow <= 0, `${where}: the page is ${overflow} px wider than the window`);
}

/** Whether the element's box lies within the window as it is scrolled now. */
async function inView(page: Page, selector: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await selector.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe('Imports guardrails in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  const openImports = async (size: { width: number; height: number }, pathname = '/imports') => {
    const credential = server.credentials;
    assert.ok(credential);
    const page = await session.newPage(size);
    await page.goto(`${server.url}${pathname}#key=${credential.api_key}:${credential.api_secret}`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    return page;
  };
  const firstRows = (page: Page) => page.getByRole('table', { name: 'First rows of the file' }).waitFor();
  const startButton = (page: Page) => page.getByRole('button', { name: 'Start the import' });
  const finished = (page: Page) => page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  const taskOf = (page: Page) => taskOfResult(server, page);
  const taskCount = async () =>
    ((await (await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}`)).json()) as { total: number })
      .total;

  for (const size of SIZES) {
    const at = `${size.width}x${size.height}`;

    test(`${at}: a file of the other kind is caught: one click switches, and nothing is imported until the user chooses`, async () => {
      const page = await openImports(size);
      await chooseCsvFile(page, 'visits.csv', appointmentsCsv(`K${size.width}`));
      const notice = page.getByRole('alert', { name: 'Wrong kind of file?' });
      await notice.waitFor();
      assert.match(await notice.innerText(), /This looks like an appointments file — switch\?/);
      await firstRows(page);
      assert.ok(await startButton(page).isDisabled(), 'no one-click import of an appointments file as QR codes');
      assert.match(
        await page.locator('.field-problem').filter({ hasText: 'looks like an appointments file' }).innerText(),
        /switch the import/,
      );
      await assertNoSidewaysScroll(page, 'the wrong-kind notice');
      await notice.getByRole('button', { name: 'Switch to Appointments' }).click();
      assert.ok(await page.getByRole('radio', { name: 'Appointments' }).isChecked());
      await firstRows(page);
      assert.equal(await notice.count(), 0, 'the notice is gone once the kind fits');
      assert.ok(await startButton(page).isEnabled());

      // The reverse: a QR code file on the appointments import, imported as chosen only once confirmed.
      await chooseCsvFile(page, 'sites.csv', sitesCsv(`KR${size.width}`));
      await notice.waitFor();
      assert.match(await notice.innerText(), /This looks like a QR code addresses file — switch\?/);
      await firstRows(page);
      assert.ok(await startButton(page).isDisabled());
      await notice.getByRole('checkbox', { name: /It is an appointments file/ }).check();
      // Confirmed, it is still no appointments file: the preview names the columns the import would refuse it for.
      await page
        .getByRole('alert')
        .filter({ hasText: 'The file has no tag_name, tag_number, start_date_time, service columns, so the import would be refused.' })
        .waitFor();
      assert.ok(await startButton(page).isDisabled(), 'the import would be refused for its missing columns');
    });

    test(`${at}: the preview's summary comes first, in the first screen, the 16-row column table folded`, async () => {
      const page = await openImports(size);
      await chooseCsvFile(page, 'every-column.csv', WIDE_QR_CSV);
      await firstRows(page);
      const verdict = page.getByRole('status', { name: 'Preview verdict' });
      assert.match(await verdict.innerText(), /The first row passes every check/);
      assert.ok(await inView(page, verdict), 'the summary is on the first screen, without scrolling');
      assert.ok(!(await page.getByRole('table', { name: "Expected columns and the file's columns" }).isVisible()), 'folded');
      assert.match(await page.locator('.preview-columns-details summary').innerText(), /16 of the 16 columns the importer reads/);
      await assertNoSidewaysScroll(page, 'the preview');
    });

    test(`${at}: warnings are shown, said not to be exclusions, and worded alike in the preview and the result`, async () => {
      const page = await openImports(size);
      await page.getByRole('radio', { name: 'Appointments' }).check();
      await chooseCsvFile(page, 'visits.csv', appointmentsCsv(`W${size.width}`));
      await firstRows(page);
      assert.equal(await page.locator('tr[data-row="2"] .preview-check').innerText(), 'OK, with a warning');
      const twice = await page.getByRole('list', { name: 'Warnings of row 2' }).innerText();
      assert.match(twice, /2026-04-05 02:30 happens twice in Australia\/Melbourne \(clocks go back from 03:00 to 02:00 that day\)/);
      const carlton = await page.getByRole('list', { name: 'Warnings of row 3' }).innerText();
      assert.match(carlton, /postcode 9999 is not Carlton VIC's, so its own postcode 3053 is used/);
      assert.match(await page.getByRole('status', { name: 'Preview verdict' }).innerText(), /warnings are not exclusions/);
      // Point 9: the column is said once, and the import's own words follow.
      const notDate = await page.getByRole('list', { name: 'Problems of row 4' }).innerText();
      assert.doesNotMatch(notDate, /start_date_time\s+start_date_time/);
      assert.match(notDate, /^start_date_time\s+"next tuesday" is not a date and time this import reads\./);
      await assertNoSidewaysScroll(page, 'the preview with warnings');

      await startButton(page).click();
      await finished(page);
      const result = page.getByRole('heading', { name: 'Import finished' });
      assert.ok(await inView(page, result), 'the page scrolled to the result: its heading and progress are in view');
      assert.ok(
        await page.evaluate<boolean>("document.activeElement?.classList.contains('import-result-anchor') ?? false"),
        'focus followed the result (the start button is gone)',
      );
      assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /2\s+imported with a warning/);
      const listed = await page.getByRole('list', { name: 'Import warnings' }).innerText();
      assert.match(listed, /Row 2 start_date_time: 2026-04-05 02:30 happens twice in Australia\/Melbourne/);
      assert.ok(listed.includes(carlton.trim()), 'the same words as the preview');
      const task = await taskOf(page);
      assert.equal(task.results.warned, 2);
      // The excluded row's problem reads as in the preview.
      const details = page.getByRole('region', { name: 'Excluded row 4' });
      assert.equal(await details.getByRole('list', { name: 'Problems of row 4' }).innerText(), notDate);
      await assertNoSidewaysScroll(page, 'the result');
    });

    test(`${at}: excluded rows show name and reference, are found by either or by row number, and "no match" shows no row`, async () => {
      const ref = `FIND${size.width}`;
      const page = await openImports(size);
      await chooseCsvFile(page, 'sites.csv', sitesCsv(ref));
      await firstRows(page);
      // Point 9: the spec's sentence gets no "location:" prefix, in the preview or the result.
      const previewed = await page.getByRole('list', { name: 'Problems of row 3' }).innerText();
      assert.match(previewed, /^Address could not be located\. Please check the street address/);
      await startButton(page).click();
      await finished(page);
      const grid = page.getByRole('grid', { name: 'Excluded rows' });
      const headers = await grid.getByRole('columnheader').allInnerTexts();
      assert.ok(headers.includes('name') && headers.includes('qr_code_external_reference_id'), headers.join(','));
      const task = await taskOf(page);
      const excluded = task.results.excluded_data as { error: string }[];
      const reasons = await grid.getByRole('gridcell').allInnerTexts();
      assert.ok(reasons.includes(excluded[0]?.error ?? '-'), 'the reason cell is the error the API and the error report give');
      assert.ok(!reasons.some((r) => /^location:\s*Address/.test(r)), 'no prefix the API does not give');

      const find = page.getByRole('searchbox', { name: 'Find in excluded rows' });
      const count = page.locator('.excluded .toolbar [role=status]');
      await find.fill(`Lost site ${ref}`);
      await count.filter({ hasText: '1 of 3 rows match' }).waitFor();
      await find.fill(`${ref}-3`);
      await count.filter({ hasText: '1 of 3 rows match' }).waitFor();
      // The match's problems show at once.
      await page.getByRole('region', { name: 'Excluded row 4' }).waitFor();
      await find.fill('5');
      await count.filter({ hasText: '1 of 3 rows match' }).waitFor();
      assert.match(await grid.innerText(), new RegExp(`Blank ${ref}`));
      await find.fill('no such site anywhere');
      await count.filter({ hasText: '0 of 3 rows match' }).waitFor();
      assert.match(await page.locator('.excluded').innerText(), /No match: no excluded row has/);
      assert.equal(await page.locator('.row-details').count(), 0, 'with no match, no row is shown');
      await assertNoSidewaysScroll(page, 'the excluded rows');

      // Point 5: the fixed file is previewed first; nothing is sent before "Start the import".
      const before = await taskCount();
      const fixed = [
        'location,name,type,qr_code_external_reference_id,row_number,error',
        `"12 Smith Street, Carlton VIC 3053",Lost site ${ref},SITE,${ref}-2,3,fixed`,
        `"2 Hay St, Perth WA 6000",Perth office ${ref},SITE,${ref}-3,4,fixed`,
        `"7 Knuckey St, Darwin NT 0800",Blank ${ref},SITE,${ref}-4,5,fixed`,
      ].join('\r\n');
      await chooseCsvFileThrough(page, 'Import the fixed file', 'fixed.csv', fixed);
      await page.getByRole('status').filter({ hasText: 'is the fixed error report of an earlier import' }).waitFor();
      await firstRows(page);
      assert.match(await page.getByRole('status', { name: 'Preview verdict' }).innerText(), /The first 3 rows pass/);
      assert.equal(await taskCount(), before, 'previewing the fixed file sent nothing');
      await startButton(page).click();
      await finished(page);
      const second = await taskOf(page);
      assert.equal(second.metadata?.fixes_task_uuid, task.uuid);
      assert.equal(second.results.inserted, 3);
      // Point 7: the note is one paragraph, row_number on one line.
      const note = page.locator('.fixed-file-note');
      assert.equal(await note.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).display), 'block');
      assert.equal(await note.locator('code').evaluate((el) => el.getClientRects().length), 1, 'row_number is not broken across lines');
      const noteBox = await note.boundingBox();
      assert.ok(noteBox && noteBox.height < 120, `the note reads as one paragraph (${noteBox?.height} px high)`);
      await assertNoSidewaysScroll(page, 'the fixed file result');
    });

    test(`${at}: after "Check only" focus stays on it, and the next Tab reaches "Start the import"`, async () => {
      const page = await openImports(size);
      await chooseCsvFile(page, 'sites.csv', sitesCsv(`KEY${size.width}`));
      await firstRows(page);
      await page.getByRole('button', { name: 'Check only' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Check result: nothing was imported' }).waitFor({ timeout: 60_000 });
      assert.equal(await page.evaluate<string>('document.activeElement?.textContent'), 'Check only');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate<string>('document.activeElement?.textContent'), 'Start the import');
    });

    test(`${at}: a #key= link pasted into a tab showing the sign-in form signs in and leaves no secret in the address`, async () => {
      const credential = server.credentials;
      assert.ok(credential);
      const page = await session.newPage(size);
      await page.goto(`${server.url}/imports`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      // As pasting the link into the address bar of this tab does: only the hash changes, the page stays.
      await page.evaluate(`window.location.hash = ${JSON.stringify(`#key=${credential.api_key}:${credential.api_secret}`)}`);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      assert.ok(!page.url().includes(credential.api_secret), page.url());
      assert.equal(await page.evaluate<string>('window.location.hash'), '');
      assert.equal(new URL(page.url()).pathname, '/imports');
    });
  }
});
