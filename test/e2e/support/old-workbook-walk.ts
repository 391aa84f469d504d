import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { draftGrid } from './draft-grid.ts';
import type { Shot } from './workbench-walk.ts';

/**
 * An Excel 97-2003 workbook (.xls, made by LibreOffice: test/fixtures/workbench/make.ts) imported
 * from the Imports page as a field admin does: its rows are on its second sheet under a title row,
 * header on row 3; the unplaceable row is sheet row 8. The page finds the sheet and header row,
 * the import runs, and the task page and the fix grid number the row 8 of sheet Sites. Shared by
 * the Playwright test (test/e2e/old-workbooks.test.ts) and the user guide's screenshots
 * (test/e2e/old-workbook-doc-shots.ts).
 */
const XLS = new URL('../../fixtures/workbench/titled-sites.xls', import.meta.url);

const previewVerdict = (page: Page) => page.getByRole('status', { name: 'Preview verdict' });

export async function walkOldWorkbook(page: Page, shot: Shot): Promise<void> {
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name: 'acme-sites.xls', mimeType: 'application/vnd.ms-excel', buffer: fs.readFileSync(XLS) });
  await previewVerdict(page).waitFor();
  assert.equal(await page.getByLabel('Sheet', { exact: true }).inputValue(), 'Sites', 'the sheet whose header names the columns');
  assert.equal(await page.getByLabel('Header row').inputValue(), '3', 'under the title row and the blank row');
  await page.getByRole('heading', { name: '2. Check before sending' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('imports-xls-sheet-and-header-row');

  await page.getByRole('button', { name: 'Use these columns' }).click();
  await page.getByRole('button', { name: 'Columns confirmed' }).waitFor();
  await page.getByRole('button', { name: 'Start the import' }).click();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /4\s+inserted/i);

  await page.getByRole('link', { name: 'Task page' }).click();
  await page.getByRole('heading', { name: 'Row 8 of sheet Sites: one problem' }).waitFor();
  const hint = page.getByText('Row is the row as your file shows it (of its sheet Sites).');
  await hint.waitFor();
  await hint.evaluate((el) => el.closest('.excluded')?.scrollIntoView({ block: 'start' }));
  await shot('imports-xls-task-row-8');

  await page.getByRole('button', { name: 'Fix the rows here' }).click();
  await page.getByRole('heading', { name: 'Fix rows in place' }).waitFor();
  const rowCell = draftGrid(page).locator('.draft-row-id').first();
  await rowCell.waitFor();
  assert.equal((await rowCell.innerText()).trim(), '8');
  assert.equal(await rowCell.getAttribute('title'), 'Row 8 of sheet Sites; line 1 of this grid');
  await page
    .getByText(/1 row of sheet Sites/)
    .first()
    .waitFor();
  await shot('imports-xls-grid-row-8');
}
