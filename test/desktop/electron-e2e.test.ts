/**
 * The real desktop app in the real Electron, driven by Playwright: start-up, sign-in through the
 * preload API, importing a file from the File menu and by dropping it, and a clean quit. Skipped,
 * with the reason printed, where the Electron binary is absent (it cannot be downloaded here).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ElectronApplication, Page } from 'playwright-core';
import { buildDesktop, rootDir } from '../../scripts/build-desktop.ts';
import type { DesktopConnection, PickedFile, QrSandboxDesktopApi } from '../../preload/api.ts';
import { electronBinary } from './support/electron-binary.ts';

// The page's globals used inside page.evaluate (this project compiles without the DOM library).
declare const window: { qrSandbox?: QrSandboxDesktopApi; received?: PickedFile[] };
declare const document: { body: { dispatchEvent(event: DragEvent): boolean } };
declare class DataTransfer {
  readonly items: { add(file: File): unknown };
}
declare class DragEvent {
  constructor(type: string, init: { dataTransfer: DataTransfer; bubbles: boolean; cancelable: boolean });
}

const binary = electronBinary();
const skip = 'missing' in binary ? binary.missing : false;
if (skip) process.stdout.write(`# Electron end-to-end tests skipped: ${skip}\n`);

describe('desktop app in Electron', { skip }, () => {
  const appDir = path.join(rootDir, 'dist', 'e2e-app');
  const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sandbox-electron-'));
  const dataDir = path.join(tempRoot, 'data');
  let app: ElectronApplication;
  let page: Page;

  before(async () => {
    if (!('path' in binary)) return;
    await buildDesktop({ outDir: appDir, log: () => {} });
    const { _electron } = await import('playwright-core');
    app = await _electron.launch({ executablePath: binary.path, args: [appDir, '--data-dir', dataDir], cwd: tempRoot });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  after(async () => {
    await app?.close().catch(() => {});
    fs.rmSync(tempRoot, { recursive: true, force: true });
    fs.rmSync(appDir, { recursive: true, force: true });
  });

  it('opens the GUI from its own loopback server, with the data in --data-dir', async () => {
    assert.match(page.url(), /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.ok(fs.existsSync(path.join(dataDir, 'credentials.json')));
    assert.ok(fs.existsSync(path.join(dataDir, 'logs')));
  });

  it('gives the page no Node and only the preload API', async () => {
    const globals = await page.evaluate(() => [
      typeof (globalThis as { require?: unknown }).require,
      typeof (globalThis as { process?: unknown }).process,
    ]);
    assert.deepEqual(globals, ['undefined', 'undefined']);
    const api = await page.evaluate(() => Object.keys(window.qrSandbox ?? {}).sort());
    assert.deepEqual(api, ['appVersion', 'getConnection', 'onImportFile', 'openImportFile', 'revealInFolder', 'saveFile']);
  });

  it('signs in through preload: the connection works for API calls from the page', async () => {
    const result = await page.evaluate(async () => {
      const api = window.qrSandbox;
      if (!api) throw new Error('no window.qrSandbox');
      const connection = await api.getConnection();
      const response = await fetch(`/api/background-tasks?organization_uuid=${connection.organizationUuid}`, {
        headers: { authorization: `Bearer ${connection.apiKey}:${connection.apiSecret}` },
      });
      return { connection, status: response.status, version: await api.appVersion() };
    });
    assert.equal(new URL(page.url()).origin, result.connection.baseUrl);
    assert.equal(result.status, 200);
    assert.match(result.version, /^\d+\.\d+\.\d+/);
  });

  it('imports a file chosen from File > Import a File…', async () => {
    const file = path.join(tempRoot, 'sites.csv');
    fs.writeFileSync(file, 'location,name\n"1 Martin Place, Sydney NSW 2000, Australia",Martin Place\n');
    await page.evaluate(() => {
      window.received = [];
      window.qrSandbox?.onImportFile((picked) => window.received?.push(picked));
    });
    await app.evaluate(({ dialog, Menu }, chosen) => {
      dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [chosen] })) as typeof dialog.showOpenDialog;
      const find = (items: Electron.MenuItem[]): Electron.MenuItem | undefined =>
        items.map((item) => (item.label === 'Import a File…' ? item : find(item.submenu?.items ?? []))).find(Boolean);
      const item = find(Menu.getApplicationMenu()?.items ?? []);
      if (!item) throw new Error('no Import a File… menu item');
      item.click();
    }, file);
    await page.waitForFunction(() => (window.received?.length ?? 0) > 0);
    const task = await page.evaluate(async () => {
      const picked = window.received?.[0];
      const api = window.qrSandbox;
      if (!picked || !api) throw new Error('no file');
      const connection: DesktopConnection = await api.getConnection();
      const auth = { authorization: `Bearer ${connection.apiKey}:${connection.apiSecret}` };
      const form = new FormData();
      form.append('organization_uuid', connection.organizationUuid);
      form.append('file', new File([picked.data], picked.name, { type: picked.type }));
      const accepted = await fetch('/api/qrcodes/bulk-import', { method: 'POST', headers: auth, body: form });
      const body = (await accepted.json()) as { background_task_uuid: string };
      for (;;) {
        const state = (await (await fetch(`/api/background-tasks/uuid/${body.background_task_uuid}`, { headers: auth })).json()) as {
          status: string;
          results: unknown;
        };
        if (state.status === 'COMPLETED' || state.status === 'FAILED') return { accepted: accepted.status, picked: picked.name, ...state };
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
    assert.equal(task.picked, 'sites.csv');
    assert.equal(task.accepted, 202);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
  });

  it('hands a file dropped on the window to the import instead of opening it', async () => {
    const received = await page.evaluate(async () => {
      window.received = [];
      const transfer = new DataTransfer();
      transfer.items.add(new File(['location\n1 Main St\n'], 'dropped.csv', { type: 'text/csv' }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      while ((window.received?.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return window.received?.map((file) => file.name);
    });
    assert.deepEqual(received, ['dropped.csv']);
    assert.match(page.url(), /^http:\/\/127\.0\.0\.1:\d+\//, 'still on the GUI');
  });

  it('quits cleanly: the server closes the database before the process ends', async () => {
    await app.close();
    const Database = (await import('better-sqlite3')).default;
    const files = fs.readdirSync(dataDir).filter((name) => name.endsWith('.sqlite') || name.endsWith('.db'));
    assert.ok(files.length > 0, 'the database file is in the data folder');
    for (const name of files) {
      const db = new Database(path.join(dataDir, name));
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      db.close();
    }
  });
});
