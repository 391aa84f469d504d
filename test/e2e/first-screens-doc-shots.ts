/**
 * The manual's screenshots of the first screens (docs/images/demo-first-screen-*.png,
 * webhook-attempt-view-*.png, inbox-attempt-column-*.png), from the real GUI in Chromium against
 * real servers: node test/e2e/first-screens-doc-shots.ts
 */
import { launchBrowser } from './support/browser.ts';
import { attemptViewShots, demoFirstScreenShots } from './support/first-screen-shots.ts';
import { prepareShotRun, shotWriter } from './support/shot-run.ts';

const outDir = await prepareShotRun(process.argv[2] ?? 'docs/images');
const browser = await launchBrowser();
try {
  const shot = shotWriter(outDir);
  await demoFirstScreenShots(browser, shot);
  await attemptViewShots(browser, shot);
} finally {
  await browser.close();
}
