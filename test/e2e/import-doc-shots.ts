/**
 * The Imports page screenshots of docs/imports.md, from the real GUI walked at 1280x800 and
 * 800x700 (light), into docs/images/ (DOC_SHOTS):
 *   node test/e2e/import-doc-shots.ts
 */
import path from 'node:path';
import { startTestServer } from '../support/server.ts';
import { launchBrowser, openPage } from './support/browser.ts';
import { importGuardShots } from './support/import-guard-shots.ts';
import { prepareShotRun } from './support/shot-run.ts';

const outDir = path.resolve('docs/images');
/** The pictures docs/imports.md shows: the journey is walked at both sizes, these are kept. */
const DOC_SHOTS = new Set([
  'imports-first-screen-1280',
  'imports-wrong-kind-1280',
  'imports-preview-warnings-800',
  'imports-result-warnings-1280',
  'imports-excluded-find-800',
  'imports-fixed-file-preview-1280',
]);
await prepareShotRun(outDir);
const browser = await launchBrowser();
try {
  for (const [width, height] of [
    [1280, 800],
    [800, 700],
  ] as const) {
    // A fresh server per size: the same rows import alike each time.
    const server = await startTestServer();
    try {
      const credential = server.credentials;
      if (!credential) throw new Error('no credential');
      const gui = await openPage(browser, { width, height });
      await gui.page.goto(`${server.url}/imports#key=${credential.api_key}:${credential.api_secret}`);
      await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
      await importGuardShots(gui.page, server.url, async (name) => {
        if (DOC_SHOTS.has(`${name}-${width}`)) await gui.page.screenshot({ path: path.join(outDir, `${name}-${width}.png`) });
      });
      await gui.close();
    } finally {
      await server.stop();
    }
  }
} finally {
  await browser.close();
}
process.stdout.write(`Screenshots in ${outDir}\n`);
