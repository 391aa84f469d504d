import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** The grid of the draft page. */
export const draftGrid = (page: Page): Locator => page.getByRole('grid', { name: 'Excluded rows to fix' });

/** A cell of the grid by draft row id and column, scrolled into view (the grid draws only the columns on screen). */
export async function draftCell(page: Page, rowId: number, column: string): Promise<Locator> {
  const grid = draftGrid(page);
  const cell = grid.locator(`[role="gridcell"]:has([data-cell="${rowId}:${column}"])`);
  // The grid draws the columns on screen only: scan from the left, more slowly when a busy machine draws late.
  for (const wait of [30, 120, 400]) {
    if ((await cell.count()) > 0) break;
    await grid.evaluate((el) => {
      el.scrollLeft = 0;
    });
    await page.waitForTimeout(wait);
    for (let step = 0; step < 40 && (await cell.count()) === 0; step++) {
      await grid.evaluate((el) => {
        el.scrollLeft += 250;
      });
      await page.waitForTimeout(wait);
    }
  }
  // An answer that arrives meanwhile redraws the row: try again on the new cell.
  for (let attempt = 1; ; attempt++) {
    try {
      await cell.scrollIntoViewIfNeeded({ timeout: 5000 });
      return cell;
    } catch (error) {
      if (attempt >= 5) throw error;
      await page.waitForTimeout(100);
    }
  }
}

/**
 * Types a new value into a cell (double-click opens the editor, Enter keeps it) and waits for the
 * row's new verdict; answers the status line and the time from Enter to the verdict on screen.
 */
export async function editDraftCell(page: Page, rowId: number, column: string, value: string): Promise<{ said: string; ms: number }> {
  const editor = page.getByRole('textbox', { name: `${column} of row ${rowId}` });
  for (let attempt = 1; ; attempt++) {
    try {
      await (await draftCell(page, rowId, column)).dblclick({ timeout: 5000 });
      await editor.waitFor({ timeout: 5000 });
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
  await editor.fill(value);
  const said = page.getByTestId('draft-said');
  const before = await said.innerText();
  const started = Date.now();
  await editor.press('Enter');
  // The status line says the row's new verdict once the server answered the edit.
  for (let waited = 0; ; waited += 10) {
    const now = await said.innerText();
    if (now !== before && now.includes(' checked again: ')) break;
    if (waited > 30_000) throw new Error(`no verdict for row ${rowId} after 30 s; the page says: ${now}`);
    await page.waitForTimeout(10);
  }
  return { said: await said.innerText(), ms: Date.now() - started };
}

/** Screenshots for docs/imports.md: into docs/images/ when QR_SANDBOX_DOC_SHOTS=1, else test-results/screenshots/. */
export async function docShot(page: Page, name: string): Promise<void> {
  const dir = process.env.QR_SANDBOX_DOC_SHOTS === '1' ? path.resolve('docs/images') : path.resolve('test-results/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
