import fs from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';

/** Clicks the page's "Download error report" button and reads the CSV file the browser saves (rows of cells, BOM removed). */
export async function downloadErrorReport(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download error report' }).click(),
  ]);
  const text = fs
    .readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim();
  return Papa.parse<string[]>(text, { newline: '\r\n' }).data;
}
