/**
 * The manual's screenshots of the first screens (docs/images/demo-first-screen-*.png,
 * webhook-attempt-view-*.png, inbox-attempt-column-*.png), from the real GUI in Chromium against
 * real servers: node test/e2e/first-screens-doc-shots.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureRendererBuild } from '../../renderer/scripts/build.ts';
import { browserUnavailable, launchBrowser } from './support/browser.ts';
import { attemptViewShots, demoFirstScreenShots } from './support/first-screen-shots.ts';

const outDir = path.resolve(process.argv[2] ?? 'docs/images');
const reason = browserUnavailable();
if (reason) {
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
await ensureRendererBuild();
fs.mkdirSync(outDir, { recursive: true });
const browser = await launchBrowser();
try {
  const shot = async (name: string, page: Pick<import('playwright-core').Page, 'screenshot'>) => {
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  };
  await demoFirstScreenShots(browser, shot);
  await attemptViewShots(browser, shot);
} finally {
  await browser.close();
}
