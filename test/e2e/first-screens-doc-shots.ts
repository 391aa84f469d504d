/**
 * The manual's screenshots of an attempt in full (docs/images/webhook-attempt-view-*.png,
 * inbox-attempt-column-*.png), from the real GUI in Chromium against a real server:
 * node test/e2e/first-screens-doc-shots.ts (the demo's first screen is a journey's: npm run docs:screenshots)
 */
import { launchBrowser } from './support/browser.ts';
import { attemptViewShots } from './support/first-screen-shots.ts';
import { prepareShotRun, shotWriter } from './support/shot-run.ts';

const outDir = await prepareShotRun(process.argv[2] ?? 'docs/images');
const browser = await launchBrowser();
try {
  await attemptViewShots(browser, shotWriter(outDir));
} finally {
  await browser.close();
}
