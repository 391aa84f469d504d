import fs from 'node:fs';
import path from 'node:path';
import { ensureRendererBuild } from '../../../renderer/scripts/build.ts';
import type { Browser } from 'playwright-core';
import type { Page } from 'playwright-core';
import { startTestServer } from '../../support/server.ts';
import { browserUnavailable, type GuiPage, launchBrowser, openPage } from './browser.ts';

/**
 * The start of every screenshot script: stop with the reason when there is no browser, build the
 * renderer when needed, and make the folder the pictures go to. Returns that folder's full path.
 */
export async function prepareShotRun(outDir: string): Promise<string> {
  const reason = browserUnavailable();
  if (reason) {
    process.stderr.write(`${reason}\n`);
    process.exit(1);
  }
  await ensureRendererBuild();
  const dir = path.resolve(outDir);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Saves a screenshot as `<name>.png` in `outDir` and says so on stdout. */
export function shotWriter(outDir: string) {
  return async (name: string, page: Pick<import('playwright-core').Page, 'screenshot'>): Promise<void> => {
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  };
}

/** Saves the page as `<name>-<width>x<height>-<scheme>.png` (the whole page when `fullPage`). */
export type LookShot = (name: string, fullPage?: boolean) => Promise<unknown>;

/**
 * Runs `take` on a fresh page at 1280x800 and 800x600, each in the light and the dark colour scheme,
 * its `shot` saving into `outDir`; what a page complained about goes to stderr.
 */
export async function inEveryLook(browser: Browser, outDir: string, take: (gui: GuiPage, shot: LookShot) => Promise<void>): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [800, 600],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const gui = await openPage(browser, { width, height, colorScheme: scheme });
      await take(gui, (name, fullPage = false) =>
        gui.page.screenshot({ path: path.join(outDir, `${name}-${width}x${height}-${scheme}.png`), fullPage }),
      );
      if (gui.problems.length) process.stderr.write(`${gui.problems.join('\n')}\n`);
      await gui.close();
    }
  }
}

/** A walk through the GUI that saves its screenshots with `shot`. */
export type ShotWalk = (page: Page, shot: (name: string) => Promise<void>) => Promise<void>;

/**
 * The screenshot scripts of the Imports page: each walk on a fresh signed-in page at 1280x800 of
 * one real server, its pictures saved into `outDir` by name.
 */
export async function shootImportWalks(outDir: string, walks: ShotWalk[]): Promise<void> {
  const dir = await prepareShotRun(outDir);
  const shot = shotWriter(dir);
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const credentials = server.credentials;
    if (!credentials) throw new Error('the server started without demo credentials');
    for (const walk of walks) {
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
}
