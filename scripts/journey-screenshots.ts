/**
 * The screenshots of the three journeys in docs/journeys/ (and of the map and the charts in
 * docs/gui.md), taken from the real GUI: each journey starts the app the README's way
 * (`qr-sandbox serve --port 0 --data-dir <empty folder>`, with `--demo` for the presenter), signs in
 * through the printed link and walks its steps in Chromium. The map and the charts are taken at
 * 1280 and 800 px wide (`…-1280.png`, `…-800.png`), the charts in the dark scheme too.
 *   npm run docs:screenshots            writes docs/images/journeys/*.png
 *   node scripts/journey-screenshots.ts OUT_DIR   writes there instead (the test does)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { ensureRendererBuild } from '../renderer/scripts/build.ts';
import { browserUnavailable, chooseCsvFile, launchBrowser, openPage } from '../test/e2e/support/browser.ts';
import { spawnServe } from '../test/support/cli.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const JOURNEY_IMAGES = path.join(ROOT, 'docs', 'images', 'journeys');

/**
 * The field admin's file: a bad type and an address nowhere (both excluded), and two addresses the
 * geocoder places other than as written (imported with a warning): a wrong postcode, found by its
 * suburb, and "Sydney WA 6000", found by its postcode alone, in Perth.
 */
const FIELD_SITES_CSV = [
  'location,name,type,qr_code_external_reference_id',
  '"1 Mitchell St, Darwin NT 0800",Darwin depot,SITE,SITE-1',
  '"2 Hay St, Perth WA 6000",Perth office,bad type!,SITE-2',
  '"1 Nowhere Road, Atlantis ZZ 00000",Lost site,SITE,SITE-3',
  '"12 Smith St, Fitzroy VIC 3065",Fitzroy store,SITE,SITE-4',
  '"2 Campbell Pde, Bondi NSW 2999",Bondi kiosk,SITE,SITE-5',
  '"7 Hay St, Sydney WA 6000",Sydney office,SITE,SITE-6',
].join('\r\n');

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

/** Saves `name.png`: the viewport, the whole page (`fullPage`), or one part of it (`of`). */
type Shot = (page: Page, name: string, options?: { fullPage?: boolean; of?: Locator }) => Promise<void>;

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

const WIDTHS = [1280, 800] as const;

/** Once every map and chart on the page has been drawn again at its box's width (after a resize). */
async function drawnAtWidth(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      // The little of the DOM this reads (this project's Node code compiles without the DOM's types).
      interface Box {
        width: number;
        clientWidth: number;
        offsetWidth: number;
        dataset: Record<string, string | undefined>;
        querySelector(selector: string): Box | null;
      }
      const page = globalThis as unknown as { devicePixelRatio: number; document: { querySelectorAll(selector: string): Iterable<Box> } };
      const ratio = page.devicePixelRatio || 1;
      const maps = [...page.document.querySelectorAll('.qr-map canvas')];
      const charts = [...page.document.querySelectorAll('.minute-chart-canvas')];
      return (
        maps.every((c) => c.dataset.outlines === 'drawn' && Math.abs(c.width - c.clientWidth * ratio) <= 1.5) &&
        charts.every((box) => Math.abs((box.querySelector('.uplot')?.offsetWidth ?? -9) - box.clientWidth) <= 1)
      );
    },
    undefined,
    { polling: 100, timeout: 10_000 },
  );
}

/**
 * `name-1280.png` and `name-800.png` (`-dark` added in the dark scheme): the page at each width
 * (its height kept), `show` bringing into view and returning what is shot (the viewport when it
 * returns nothing). Back to 1280 px and the light scheme afterwards.
 */
async function atBothWidths(
  page: Page,
  shot: Shot,
  name: string,
  show: () => Promise<Locator | undefined>,
  schemes: readonly ('light' | 'dark')[] = ['light'],
): Promise<void> {
  const height = page.viewportSize()?.height ?? 800;
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height });
      await drawnAtWidth(page);
      const of = await show();
      const tall = of ? ((await of.boundingBox())?.height ?? 0) + 2 * MARGIN : 0;
      await withHeight(page, tall, () => shot(page, `${name}-${width}${scheme === 'dark' ? '-dark' : ''}`, of ? { of } : {}));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height });
  await drawnAtWidth(page);
}

/** Scrolls so that `target` starts at the top of the viewport, and returns nothing (the viewport is shot). */
const scrolledTo = (target: Locator) => async () => {
  await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  return undefined;
};

/**
 * Field admin: the Imports page, a file's preview, the finished import and its map, its excluded
 * rows, then the QR codes page's map on the keyboard.
 */
async function fieldAdmin(browser: Browser, shot: Shot): Promise<void> {
  await onServedPage(browser, [], async (page, server) => {
    await page.goto(server.signIn.replace(/\/#key=/, '/imports#key='));
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await shot(page, 'field-admin-1-imports');
    await chooseCsvFile(page, 'sites.csv', FIELD_SITES_CSV);
    await page.getByRole('table', { name: 'First rows of the file' }).waitFor();
    await shot(page, 'field-admin-2-preview', { fullPage: true });
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Import finished' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'field-admin-3-finished');
    const map = page.getByRole('region', { name: 'Map' });
    await atBothWidths(page, shot, 'field-admin-4-import-map', async () => map);
    await page.getByRole('link', { name: 'Task page' }).click();
    await page.getByRole('heading', { name: 'Excluded rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.getByRole('button', { name: 'Import the fixed file' }).waitFor();
    await shot(page, 'field-admin-5-excluded-rows');
    await page.goto(`${server.url}/qrcodes`);
    await atBothWidths(page, shot, 'field-admin-6-qrcodes-map', async () => {
      // On the keyboard: Tab to the map (Esc: off the point it was on), → to the westmost point: "Sydney WA 6000", in Perth.
      await page.getByLabel('Zoom to').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowRight');
      await page.locator('.qr-map-cursor:focus').waitFor();
      await map.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      return map;
    });
  });
}

/**
 * Webhook developer: an inbox with a webhook to it, a test event, its delivery, the message
 * decrypted and verified; then the inbox fails each first attempt, and the webhook's chart shows
 * the retries.
 */
async function webhookDeveloper(browser: Browser, shot: Shot): Promise<void> {
  await onServedPage(browser, [], async (page, server) => {
    await page.goto(server.signIn.replace(/\/#key=/, '/inspector#key='));
    await page.getByLabel('Name').fill('My app');
    await page.getByRole('button', { name: 'Create inbox' }).click();
    await page.getByRole('heading', { name: 'My app', level: 1 }).waitFor();
    const inboxUrl = page.url();
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
    const webhookUrl = page.url();
    const delivery = page.locator('article.delivery-highlighted');
    await delivery.getByText('What was sent (attempt 1)').waitFor({ timeout: 30_000 });
    await delivery.getByText('What was sent (attempt 1)').click();
    await delivery.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'webhook-developer-3-delivery');
    await delivery.getByRole('link', { name: 'Open attempt 1 in the inspector' }).click();
    await page.getByRole('region', { name: 'Verdicts' }).waitFor();
    await shot(page, 'webhook-developer-4-message');

    // The inbox answers 503 to every first attempt: two more events are each retried 5 s later.
    await page.goto(inboxUrl);
    const rules = page.getByRole('form', { name: 'Answer rules' });
    await rules.getByLabel('Fail the first').fill('1');
    await rules.getByRole('button', { name: 'Add preset' }).click();
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await rules.getByText('Rules saved.').waitFor();
    await page.goto(`${server.url}/webhooks`);
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('region', { name: 'Event sent' }).waitFor();
    }
    await page.goto(webhookUrl.replace(/[?#].*/, ''));
    const chart = page.getByRole('region', { name: 'Last hour' });
    await chart.getByText(/^Last hour: 3 delivered, 2 retried, 0 failed/).waitFor({ timeout: 30_000 });
    await atBothWidths(page, shot, 'webhook-developer-5-chart', async () => chart, ['light', 'dark']);
  });
}

/**
 * Presenter: `serve --demo`, its first screen once the flaky app has been retried and delivered
 * (the first minute), its map of the sites with the last minute's events ringed, the flaky app's
 * webhook, then the imports it made and the inspector's live traffic.
 */
async function presenter(browser: Browser, shot: Shot): Promise<void> {
  await onServedPage(browser, ['--demo', '--demo-interval', '2'], async (page, server) => {
    await page.goto(server.signIn);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // The first check-out's delivery to the flaky app fails twice, then is delivered.
    const counters = page.getByRole('region', { name: 'Counters' });
    await counters.getByText(/^Last hour: [1-9]/).waitFor({ timeout: 90_000 });
    await page.getByRole('link', { name: "Open the flaky app's delivery log" }).click();
    const chart = page.getByRole('region', { name: 'Last hour' });
    await chart.getByText(/[1-9]\d* delivered, [2-9]\d* retried/).waitFor({ timeout: 90_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
    await counters.getByText(/^Last hour: [1-9]/).waitFor();
    await atBothWidths(page, shot, 'presenter-1-first-screen', async () => {
      await page.mouse.wheel(0, -100_000);
      return undefined;
    });
    await atBothWidths(page, shot, 'presenter-2-events-per-minute', async () => counters, ['dark']);
    const map = page.getByRole('region', { name: 'Map' });
    await atBothWidths(page, shot, 'presenter-3-map', async () => {
      await page.locator('.qr-map canvas:not([data-rings="0"])').waitFor();
      return map;
    });
    await page.getByRole('link', { name: "Open the flaky app's delivery log" }).click();
    await chart.getByText(/delivered/).waitFor();
    const refreshed = page.getByRole('button', { name: 'Refresh' }).and(page.locator(':enabled'));
    await atBothWidths(page, shot, 'presenter-4-flaky-app', async () => {
      await refreshed.waitFor();
      return scrolledTo(chart)();
    });
    await page.goto(`${server.url}/tasks`);
    await page.getByRole('table', { name: 'Background tasks' }).waitFor();
    await shot(page, 'presenter-5-tasks');
    await page.goto(`${server.url}/inspector`);
    await page.getByRole('link', { name: 'Demo inbox' }).first().click();
    await page.getByRole('table', { name: 'Messages' }).locator('tbody tr').nth(1).waitFor({ timeout: 30_000 });
    await shot(page, 'presenter-6-inspector');
  });
}

const MARGIN = 12;

/** Runs `take` with the viewport at least `height` tall (the maps and charts drawn again at their width), then as it was. */
async function withHeight<T>(page: Page, height: number, take: () => Promise<T>): Promise<T> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  if (height <= viewport.height) return take();
  await page.setViewportSize({ ...viewport, height: Math.ceil(height) });
  await drawnAtWidth(page);
  try {
    return await take();
  } finally {
    await page.setViewportSize(viewport);
    await drawnAtWidth(page);
  }
}

/**
 * Brings `part` into the middle of the viewport and returns where it is with a margin around it (a
 * clip). A part taller than the viewport is not cut: the screenshot is taken in withHeight instead.
 */
async function inView(page: Page, part: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const measured = await part.boundingBox();
  if (!measured) throw new Error('the part to shoot is not shown');
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  if (measured.height + 2 * MARGIN > viewport.height)
    throw new Error(`a part ${measured.height} px tall does not fit ${viewport.height} px`);
  await part.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await part.boundingBox();
  if (!box) throw new Error('the part to shoot is not shown');
  const x = Math.max(0, box.x - MARGIN);
  const y = Math.max(0, box.y - MARGIN);
  return {
    x,
    y,
    width: Math.min(box.width + 2 * MARGIN, viewport.width - x),
    height: Math.min(box.height + 2 * MARGIN, viewport.height - y),
  };
}

export async function takeJourneyScreenshots(outDir: string): Promise<string[]> {
  await ensureRendererBuild({ quiet: true });
  fs.mkdirSync(outDir, { recursive: true });
  const taken: string[] = [];
  const shot: Shot = async (page, name, options = {}) => {
    const file = path.join(outDir, `${name}.png`);
    if (options.of) await page.screenshot({ path: file, clip: await inView(page, options.of) });
    else if (options.fullPage) {
      // The whole page in a viewport as tall as it, so the sidebar (as tall as the viewport) reaches the bottom.
      await withHeight(page, await page.evaluate<number>('document.documentElement.scrollHeight'), () => page.screenshot({ path: file }));
    } else await page.screenshot({ path: file });
    taken.push(file);
  };
  const browser = await launchBrowser();
  try {
    // The presenter's demo mostly waits for its first minute to happen: the other two walk meanwhile.
    await Promise.all([
      presenter(browser, shot),
      (async () => {
        await fieldAdmin(browser, shot);
        await webhookDeveloper(browser, shot);
      })(),
    ]);
  } finally {
    await browser.close();
  }
  return taken.sort();
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
