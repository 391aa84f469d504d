/**
 * The screenshots of the three journeys in docs/journeys/, taken from the real GUI: each journey
 * starts the app the README's way (`qr-sandbox serve --port 0 --data-dir <empty folder>`, with
 * `--demo` for the presenter), signs in through the printed link and walks its steps in Chromium.
 *   npm run docs:screenshots            writes docs/images/journeys/*.png
 *   node scripts/journey-screenshots.ts OUT_DIR   writes there instead (the test does)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { ensureRendererBuild } from '../renderer/scripts/build.ts';
import { SHOT_SITES_CSV } from '../test/e2e/support/import-shots.ts';
import { browserUnavailable, chooseCsvFile, launchBrowser, openPage } from '../test/e2e/support/browser.ts';
import { spawnServe } from '../test/support/cli.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const JOURNEY_IMAGES = path.join(ROOT, 'docs', 'images', 'journeys');

interface Served {
  url: string;
  signIn: string;
  stop(): Promise<void>;
}

/** `qr-sandbox serve` as a user starts it, on an empty data folder; resolves once it prints its sign-in link. */
async function serve(extra: string[] = []): Promise<Served> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-journey-'));
  const served = await spawnServe(['--data-dir', dataDir, ...extra]);
  let signIn: string | undefined;
  for (let waited = 0; !signIn; waited += 20) {
    if (waited > 10_000) throw new Error(`serve printed no sign-in link:\n${served.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    signIn = /Sign in\s+(http:\/\/\S+#key=\S+)/.exec(served.output())?.[1];
  }
  return {
    url: served.url,
    signIn,
    async stop() {
      await served.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Shot = (page: Page, name: string, options?: { fullPage?: boolean }) => Promise<void>;

/** `walk` on a page of its own against a server of its own (`serve` with `serveArgs`); both are closed after it. */
async function onServedPage(browser: Browser, serveArgs: string[], walk: (page: Page, server: Served) => Promise<void>): Promise<void> {
  const server = await serve(serveArgs);
  const { page, close } = await openPage(browser);
  try {
    await walk(page, server);
  } finally {
    await close();
    await server.stop();
  }
}

/** Field admin: the Imports page, a file's preview, the finished import, its excluded rows. */
async function fieldAdmin(browser: Browser, shot: Shot): Promise<void> {
  await onServedPage(browser, [], async (page, server) => {
    await page.goto(server.signIn.replace(/\/#key=/, '/imports#key='));
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await shot(page, 'field-admin-1-imports');
    await chooseCsvFile(page, 'sites.csv', SHOT_SITES_CSV);
    await page.getByRole('table', { name: 'First rows of the file' }).waitFor();
    await shot(page, 'field-admin-2-preview', { fullPage: true });
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'field-admin-3-finished');
    await page.getByRole('link', { name: 'Task page' }).click();
    await page.getByRole('heading', { name: 'Excluded rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.getByRole('button', { name: 'Import the fixed file' }).waitFor();
    await shot(page, 'field-admin-4-excluded-rows');
  });
}

/** Webhook developer: an inbox with a webhook to it, a test event, its delivery, the message decrypted and verified. */
async function webhookDeveloper(browser: Browser, shot: Shot): Promise<void> {
  await onServedPage(browser, [], async (page, server) => {
    await page.goto(server.signIn.replace(/\/#key=/, '/inspector#key='));
    await page.getByLabel('Name').fill('My app');
    await page.getByRole('button', { name: 'Create inbox' }).click();
    await page.getByRole('heading', { name: 'My app', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Register a webhook to this inbox' }).click();
    await page.getByRole('status').filter({ hasText: 'Webhook registered' }).waitFor();
    await shot(page, 'webhook-developer-1-inbox');
    await page.goto(`${server.url}/webhooks`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const sent = page.getByRole('region', { name: 'Event sent' });
    await sent.waitFor();
    await sent.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'webhook-developer-2-event-sent');
    await sent.getByRole('link', { name: 'See the delivery' }).click();
    const delivery = page.locator('article.delivery-highlighted');
    await delivery.getByText('What was sent (attempt 1)').waitFor({ timeout: 30_000 });
    await delivery.getByText('What was sent (attempt 1)').click();
    await delivery.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'webhook-developer-3-delivery');
    await delivery.getByRole('link', { name: 'Open attempt 1 in the inspector' }).click();
    await page.getByRole('region', { name: 'Verdicts' }).waitFor();
    await shot(page, 'webhook-developer-4-message');
  });
}

/** Presenter: `serve --demo`, its first screen a few seconds after the start, then the inspector's live traffic. */
async function presenter(browser: Browser, shot: Shot): Promise<void> {
  await onServedPage(browser, ['--demo', '--demo-interval', '2'], async (page, server) => {
    await page.goto(server.signIn);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.waitForTimeout(5000);
    await shot(page, 'presenter-1-first-screen');
    await page.goto(`${server.url}/tasks`);
    await page.getByRole('table', { name: 'Background tasks' }).waitFor();
    await shot(page, 'presenter-2-tasks');
    await page.goto(`${server.url}/inspector`);
    await page.getByRole('link', { name: 'Demo inbox' }).first().click();
    await page.getByRole('table', { name: 'Messages' }).locator('tbody tr').nth(1).waitFor({ timeout: 30_000 });
    await shot(page, 'presenter-3-inspector');
  });
}

export async function takeJourneyScreenshots(outDir: string): Promise<string[]> {
  await ensureRendererBuild({ quiet: true });
  fs.mkdirSync(outDir, { recursive: true });
  const taken: string[] = [];
  const shot: Shot = async (page, name, options = {}) => {
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
    taken.push(file);
  };
  const browser = await launchBrowser();
  try {
    await fieldAdmin(browser, shot);
    await webhookDeveloper(browser, shot);
    await presenter(browser, shot);
  } finally {
    await browser.close();
  }
  return taken;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reason = browserUnavailable();
  if (reason) {
    process.stderr.write(`${reason}\n`);
    process.exit(1);
  }
  const taken = await takeJourneyScreenshots(path.resolve(process.argv[2] ?? JOURNEY_IMAGES));
  process.stdout.write(`${taken.map((file) => path.relative(process.cwd(), file)).join('\n')}\n`);
}
