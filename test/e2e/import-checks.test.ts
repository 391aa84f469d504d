/**
 * Issue 17 points 3, 6, 7 and 8 in Chromium, against a real server with the shipped offline
 * geocoder: the preview excludes what the import excludes, row problems one per line with the
 * cell marked, appointment counts said once with a link to Services, and day-first dates.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserUnavailable, chooseCsvFile, previewCsvFile } from './support/browser.ts';
import { appointmentsCsv, mixedQrCsv } from './support/import-check-files.ts';
import { suiteGuiSession } from './support/session.ts';
import { taskOfResult } from './support/task-of-result.ts';

const skip = browserUnavailable();

/** A mixed QR code file (the tag Gate 7 given twice) and a good last row. */
const MIXED_QR_CSV = mixedQrCsv(7, [',Hobart office,Hobart,TAS,7000,Australia,SITE,,']);
/** Appointments with the start times written year first. */
const APPOINTMENTS_CSV = appointmentsCsv('B', ['2026-03-02 09:00', '2026-03-02 10:00']);

describe('Import checks in Chromium: preview = import, row problems, counts, date order', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  /** The file line numbers the preview marks as failing. */
  const previewFailing = async (page: Page) => {
    const table = page.getByRole('table', { name: 'First rows of the file' });
    await table.waitFor();
    const rows = table.locator('tr[data-row].row-problem');
    const numbers = await rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-row'))));
    return new Set(numbers);
  };

  const taskOf = (page: Page) => taskOfResult(server, page);

  test("the preview marks exactly the rows the import excludes, with the geocoder's reason", async () => {
    const page = await session.signedInPage('/imports');
    await chooseCsvFile(page, 'mixed-sites.csv', MIXED_QR_CSV);
    const failing = await previewFailing(page);
    assert.deepEqual([...failing].sort(), [3, 4, 5, 7]);
    const richmond = await page.getByRole('list', { name: 'Problems of row 3' }).innerText();
    assert.match(richmond, /Address could not be located\. Please check the street address, suburb, state, postcode and country\./);
    assert.match(richmond, /"Richmond" is a place in several states .*: add the state/);
    assert.match(await page.getByRole('list', { name: 'Problems of row 7' }).innerText(), /tag Gate 7 already belongs to another QR code/);

    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    const task = await taskOf(page);
    const excluded = (task.results.excluded_data as { index: number }[]).map((e) => e.index + 2);
    assert.deepEqual(new Set(excluded), failing, "the preview's excluded set equals the import's for the rows shown");
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /3\s+inserted[\s\S]*4\s+excluded/);
  });

  test('appointments: three problems one per line with their cells marked, a link to Services, counts said once', async () => {
    const page = await session.signedInPage('/imports');
    await page.getByRole('radio', { name: 'Appointments' }).check();
    await chooseCsvFile(page, 'visits.csv', APPOINTMENTS_CSV);
    const failing = await previewFailing(page);
    assert.deepEqual([...failing].sort(), [3, 4]);
    const three = page.getByRole('list', { name: 'Problems of row 4' });
    assert.equal(await three.getByRole('listitem').count(), 3, 'one line per problem');
    const suggestion = three.getByText('Did you mean Australia/Melbourne?');
    assert.ok(await suggestion.isVisible(), 'the zone suggestion is in view, not cut off');
    const marked = await page.locator('tr[data-row="4"] td.cell-problem').allInnerTexts();
    assert.deepEqual(marked, ['next tuesday', '-5', 'Melbourne']);
    const unknown = page.getByRole('list', { name: 'Problems of row 3' });
    assert.match(await unknown.innerText(), /service "Carpet shampoo" is not in this organization's service catalog/);

    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    const counts = await page.getByRole('list', { name: 'Import counts' }).innerText();
    assert.match(counts, /1\s+inserted[\s\S]*2\s+excluded/);
    assert.doesNotMatch(counts, /upserted|updated/, 'each count once, zeros left out');
    const task = await taskOf(page);
    const excluded = (task.results.excluded_appointments as { index: number }[]).map((e) => e.index + 2);
    assert.deepEqual(new Set(excluded), failing);
    // The excluded rows: one Row column (the file's line), the first row's problems listed, the cell marked.
    const grid = page.getByRole('grid', { name: 'Excluded rows' });
    const headers = await grid.getByRole('columnheader').allInnerTexts();
    assert.ok(headers.includes('Row') && !headers.includes('Index'), headers.join(','));
    const details = page.getByRole('region', { name: 'Excluded row 3' });
    await details.getByRole('link', { name: 'Services' }).click();
    await page.waitForURL((url) => url.pathname === '/appointments/services');
  });

  test('day-first dates are read as the Settings say, and the preview says how', async () => {
    const page = await session.signedInPage('/settings');
    const section = page.getByRole('region', { name: 'Date order' });
    assert.ok(
      await section.getByRole('radio', { name: /Day first/ }).isChecked(),
      'an organization in Australia/Melbourne reads day first by default',
    );
    assert.match(await section.getByRole('status').innerText(), /default from the organization's time zone/);
    const csv =
      'tag_name,tag_number,start_date_time,location,service\r\nSite,D-1,02/12/2026 11:00,"1 Collins Street, Melbourne VIC 3000, Australia",Cleaning\r\n';
    const setOrder = async (name: RegExp) => {
      await page.goto(`${server.url}/settings`);
      const dateOrder = page.getByRole('region', { name: 'Date order' });
      await dateOrder.getByRole('radio', { name }).check();
      await dateOrder.getByText('Date order saved').waitFor();
    };
    const preview = async () => {
      await page.goto(`${server.url}/imports`);
      await page.getByRole('radio', { name: 'Appointments' }).check();
      await previewCsvFile(page, 'excel-dates.csv', csv);
    };

    await setOrder(/Month first/);
    await preview();
    assert.match(
      await page.getByRole('list', { name: 'How row 2 was read' }).innerText(),
      /read month first \(MM\/DD\/YYYY\) as 12 February 2026, 11:00/,
    );

    await setOrder(/Day first/);
    await preview();
    assert.match(
      await page.getByRole('list', { name: 'How row 2 was read' }).innerText(),
      /"02\/12\/2026 11:00" read day first \(DD\/MM\/YYYY\) as 2 December 2026, 11:00/,
    );
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    const list = (await (
      await server.request(`/api/appointment_schedule?organization_uuid=${server.organizationUuid}&per_page=100`)
    ).json()) as {
      items: { start_date_time: string }[];
    };
    assert.ok(
      list.items.some((a) => a.start_date_time === '2026-12-02T11:00:00+11:00'),
      'stored as 2 December',
    );

    await setOrder(/Year-month-day only/);
    await preview();
    assert.match(
      await page.getByRole('list', { name: 'Problems of row 2' }).innerText(),
      /could be 2 December 2026, 11:00 \(day first\) or 12 February 2026, 11:00 \(month first\)/,
    );
  });
});
