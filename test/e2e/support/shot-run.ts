import fs from 'node:fs';
import path from 'node:path';
import { ensureRendererBuild } from '../../../renderer/scripts/build.ts';
import type { Browser } from 'playwright-core';
import { browserUnavailable, type GuiPage, openPage } from './browser.ts';

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
