/**
 * The user guide's screenshots of the import workbench (docs/images/workbench-*.png), taken from
 * the real GUI in Chromium against a real server with the shipped offline geocoder, walking the
 * same steps the Playwright test checks (support/workbench-walk.ts):
 *   node test/e2e/workbench-doc-shots.ts
 */
import { startTestServer } from '../support/server.ts';
import { launchBrowser, openPage } from './support/browser.ts';
import { prepareShotRun, shotWriter } from './support/shot-run.ts';
import { walkAppointmentWorkbook, walkColumnQuestion, walkNearMissMatch, walkQrWorkbook } from './support/workbench-walk.ts';

const outDir = await prepareShotRun('docs/images');
const shot = shotWriter(outDir);
const server = await startTestServer();
const browser = await launchBrowser();
try {
  const credentials = server.credentials;
  if (!credentials) throw new Error('the server started without demo credentials');
  for (const walk of [walkQrWorkbook, walkColumnQuestion, walkNearMissMatch, walkAppointmentWorkbook]) {
    const { page, close } = await openPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/imports#key=${credentials.api_key}:${credentials.api_secret}`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await walk(page, (name) => shot(name, page));
    await close();
  }
} finally {
  await browser.close();
  await server.stop();
}
