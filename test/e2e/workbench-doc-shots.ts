/**
 * The user guide's screenshots of the import workbench (docs/images/workbench-*.png), taken from
 * the real GUI in Chromium against a real server with the shipped offline geocoder, walking the
 * same steps the Playwright test checks (support/workbench-walk.ts):
 *   node test/e2e/workbench-doc-shots.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureRendererBuild } from '../../renderer/scripts/build.ts';
import { startTestServer } from '../support/server.ts';
import { browserUnavailable, launchBrowser, openPage } from './support/browser.ts';
import { walkAppointmentWorkbook, walkColumnQuestion, walkQrWorkbook } from './support/workbench-walk.ts';

const outDir = path.resolve('docs/images');
const reason = browserUnavailable();
if (reason) {
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
await ensureRendererBuild();
fs.mkdirSync(outDir, { recursive: true });
const server = await startTestServer();
const browser = await launchBrowser();
try {
  const credentials = server.credentials;
  if (!credentials) throw new Error('the server started without demo credentials');
  for (const walk of [walkQrWorkbook, walkColumnQuestion, walkAppointmentWorkbook]) {
    const { page, close } = await openPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/imports#key=${credentials.api_key}:${credentials.api_secret}`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await walk(page, async (name) => {
      const file = path.join(outDir, `${name}.png`);
      await page.screenshot({ path: file });
      process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
    });
    await close();
  }
} finally {
  await browser.close();
  await server.stop();
}
