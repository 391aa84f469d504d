import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The Electron executable that `npm start` would run, or why there is none. Never downloads:
 * the electron package fetches its binary on first require, which these tests must not trigger.
 */
export function electronBinary(): { path: string } | { missing: string } {
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    return {
      missing:
        'the Electron binary is not installed (node_modules/electron/path.txt is absent); `npm start` downloads it on a machine with internet',
    };
  }
  const binary = path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  if (!fs.existsSync(binary)) return { missing: `the Electron binary ${binary} is missing` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { missing: 'Electron is installed but there is no display (DISPLAY is unset); run the tests under xvfb-run' };
  }
  return { path: binary };
}
