/** Electron entry point (package.json "main" points at its compiled form, dist/app/main/main.js). */
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell } from 'electron';
import { builtWorkerBundle } from '../server/imports/workers/worker-bundle.ts';
import { startServer } from '../server/server.ts';
import { runDesktopApp } from './desktop-app.ts';
import type { DesktopElectron } from './electron-api.ts';

const electron: DesktopElectron = { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell };

const desktop = runDesktopApp({
  electron,
  argv: process.argv,
  cwd: process.cwd(),
  platform: process.platform,
  preloadPath: fileURLToPath(new URL('../preload/preload.cjs', import.meta.url)),
  startServer: (options) => startServer({ ...options, imports: { startReaderEarly: true, workerEntry: builtWorkerBundle() } }),
  log: (message) => process.stderr.write(`${message}\n`),
});

desktop.started.catch((error: unknown) => {
  dialog.showErrorBox('QR Sandbox stopped', error instanceof Error ? (error.stack ?? error.message) : String(error));
  app.exit(1);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
