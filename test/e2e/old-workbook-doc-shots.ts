/**
 * The user guide's screenshots of an .xls import (docs/images/imports-xls-*.png), taken from the
 * real GUI in Chromium at 1280x800 against a real server with the shipped offline geocoder,
 * walking the steps the Playwright test checks (support/old-workbook-walk.ts):
 *   node test/e2e/old-workbook-doc-shots.ts
 */
import { startTestServer } from '../support/server.ts';
import { launchBrowser, openPage } from './support/browser.ts';
import { walkOldWorkbook } from './support/old-workbook-walk.ts';
import { prepareShotRun, shotWriter } from './support/shot-run.ts';

const outDir = await prepareShotRun('docs/images');
const shot = shotWriter(outDir);
const server = await startTestServer();
const browser = await launchBrowser();
try {
  const credentials = server.credentials;
  if (!credentials) throw new Error('the server started without demo credentials');
  const { page, close } = await openPage(browser, { width: 1280, height: 800 });
  await page.goto(`${server.url}/imports#key=${credentials.api_key}:${credentials.api_secret}`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  await walkOldWorkbook(page, (name) => shot(name, page));
  await close();
} finally {
  await browser.close();
  await server.stop();
}
