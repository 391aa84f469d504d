#!/usr/bin/env node
// Makes sure the Electron binary for this machine is in node_modules/electron/dist before
// `npm start` launches it. npm ci never downloads it (the electron package fetches it on first
// use); here it is fetched once from Electron's release server, with a clear message if that fails.
// Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
let electronDir;
try {
  electronDir = path.dirname(require.resolve('electron/package.json'));
} catch {
  process.stderr.write('The electron package is not installed. Run `npm ci` first.\n');
  process.exit(1);
}

function installedElectronBinary(dir = electronDir) {
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return undefined;
  const binary = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : undefined;
}

if (!installedElectronBinary()) {
  process.stdout.write('Downloading the Electron binary (once, about 100 MB)...\n');
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { stdio: 'inherit' });
  if (result.status !== 0 || !installedElectronBinary()) {
    process.stderr.write(
      'Could not download Electron. The desktop app needs it once, from the internet (github.com, or the\n' +
        'mirror in ELECTRON_MIRROR). Without it, run QR Sandbox in the browser instead: npm run serve\n',
    );
    process.exit(1);
  }
}
