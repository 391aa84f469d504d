import fs from 'node:fs';
import path from 'node:path';
import { ensureRendererBuild } from '../../../renderer/scripts/build.ts';
import { browserUnavailable } from './browser.ts';

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
