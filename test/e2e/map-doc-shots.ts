/**
 * The manual's screenshots of the map (docs/images/map-*.png), from the real GUI in Chromium
 * against a demo server: node test/e2e/map-doc-shots.ts
 */
import { launchBrowser } from './support/browser.ts';
import { mapShots } from './support/map-shots.ts';
import { prepareShotRun, shotWriter } from './support/shot-run.ts';

const outDir = await prepareShotRun(process.argv[2] ?? 'docs/images');
const browser = await launchBrowser();
try {
  await mapShots(browser, shotWriter(outDir));
} finally {
  await browser.close();
}
