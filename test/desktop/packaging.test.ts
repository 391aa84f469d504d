/**
 * The desktop build and package, without the Electron binary: builds dist/app/, runs the compiled
 * main process and server with the fake electron module, then packages with electron-builder
 * --dir against a stub Electron distribution and checks (and runs) what it packed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { appDir, buildDesktop, rootDir } from '../../scripts/build-desktop.ts';
import type * as DesktopAppModule from '../../main/desktop-app.ts';
import type * as ModuleUrlModule from '../../server/module-url.ts';
import type * as ServerModule from '../../server/server.ts';
import type * as WorkerBundleModule from '../../server/imports/workers/worker-bundle.ts';
import { childPids, commandLine } from '../support/processes.ts';
import type { DesktopConnection, QrSandboxDesktopApi } from '../../preload/api.ts';
import { FakeElectron } from './support/fake-electron.ts';
import { loadSandboxedPreload } from './support/sandboxed-preload.ts';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(fs.readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version: string; main: string };
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sandbox-packaging-'));
after(() => fs.rmSync(tempRoot, { recursive: true, force: true }));

/** Files under server/ that are not TypeScript: data the server reads next to its code (e.g. the gazetteer). */
function serverAssets(dir = path.join(rootDir, 'server')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverAssets(full);
    return /\.(c|m)?ts$/.test(entry.name) ? [] : [path.relative(rootDir, full)];
  });
}

const rendererSources = fs.existsSync(path.join(rootDir, 'renderer', 'index.html'));

before(() => buildDesktop({ log: () => {} }));

describe('desktop build (dist/app)', () => {
  it('holds the compiled main process, the CommonJS preload and the server, with relative imports rewritten', () => {
    assert.equal(pkg.main, 'dist/app/main/main.js');
    for (const file of ['main/main.js', 'main/desktop-app.js', 'preload/preload.cjs', 'server/server.js', 'server/module-url.js']) {
      assert.ok(fs.existsSync(path.join(appDir, file)), file);
    }
    const main = fs.readFileSync(path.join(appDir, 'main', 'main.js'), 'utf8');
    assert.match(main, /from '\.\.\/server\/server\.js'/);
    assert.doesNotMatch(main, /\.ts'/);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')), {
      name: 'qr-sandbox-app',
      version: pkg.version,
      private: true,
      type: 'module',
      main: 'main/main.js',
    });
  });

  it("copies the server's data files next to the compiled code", () => {
    for (const asset of serverAssets()) assert.ok(fs.existsSync(path.join(appDir, asset)), asset);
  });

  it('includes the built GUI where server/http/gui.ts looks for it', (t) => {
    if (!rendererSources) {
      t.diagnostic('renderer/ is not in this checkout: the GUI build is checked once it is');
      return;
    }
    assert.ok(fs.existsSync(path.join(appDir, 'dist', 'renderer', 'index.html')));
  });

  it('resolves sibling modules by the compiled extension (worker entry files)', async () => {
    const compiled = (await import(pathToFileURL(path.join(appDir, 'server', 'module-url.js')).href)) as typeof ModuleUrlModule;
    const base = pathToFileURL(path.join(appDir, 'server', 'module-url.js')).href;
    const resolved = compiled.moduleUrl('./server.ts', base);
    assert.equal(resolved.href, pathToFileURL(path.join(appDir, 'server', 'server.js')).href);
    assert.ok(fs.existsSync(resolved));
  });

  it('import workers run the bundle built from the compiled code, and an import through them stores its rows', async () => {
    const bundle = (await import(
      pathToFileURL(path.join(appDir, 'server', 'imports', 'workers', 'worker-bundle.js')).href
    )) as typeof WorkerBundleModule;
    const entry = bundle.builtWorkerBundle();
    assert.equal(entry, path.join(appDir, 'dist', 'worker', 'worker.mjs'));
    const server = (await import(pathToFileURL(path.join(appDir, 'server', 'server.js')).href)) as typeof ServerModule;
    const running = await server.startServer({
      dataDir: fs.mkdtempSync(path.join(tempRoot, 'bundle-data-')),
      port: 0,
      logLevel: 'warn',
      imports: { workerEntry: entry },
    });
    try {
      const credentials = running.credentials;
      assert.ok(credentials);
      const auth = `Bearer ${credentials.api_key}:${credentials.api_secret}`;
      const form = new FormData();
      form.set('organization_uuid', credentials.organization_uuid);
      form.set('processing_mode', 'sync');
      form.set('file', new Blob(['name,location\nDepot,"1 Acacia Street, Australian National University ACT 0200"\n']), 'sites.csv');
      const answer = await fetch(`${running.url}/api/qrcodes/bulk`, { method: 'POST', headers: { authorization: auth }, body: form });
      assert.equal(answer.status, 200, await answer.clone().text());
      assert.equal(((await answer.json()) as { inserted: number }).inserted, 1);
      const workers = childPids(process.pid).filter((pid) => commandLine(pid).includes(entry));
      assert.ok(workers.length > 0, 'the import worker runs dist/app/dist/worker/worker.mjs');
      const list = await fetch(`${running.url}/api/qrcodes?organization_uuid=${credentials.organization_uuid}`, {
        headers: { authorization: auth },
      });
      const [stored] = ((await list.json()) as { items: { name: string; state: string; postcode: string }[] }).items;
      assert.deepEqual([stored?.name, stored?.state, stored?.postcode], ['Depot', 'ACT', '0200'], 'located by the gazetteer in dist/app/');
    } finally {
      await running.close();
    }
  });

  it('the compiled preload runs in the sandbox', () => {
    const preload = loadSandboxedPreload(path.join(appDir, 'preload', 'preload.cjs'));
    assert.deepEqual(preload.required, ['electron']);
    const api = preload.exposed.get('qrSandbox') as QrSandboxDesktopApi | undefined;
    assert.equal(typeof api?.getConnection, 'function');
  });

  it('the compiled main process starts the compiled server, signs the window in and quits cleanly', async () => {
    const desktopApp = (await import(pathToFileURL(path.join(appDir, 'main', 'desktop-app.js')).href)) as typeof DesktopAppModule;
    const server = (await import(pathToFileURL(path.join(appDir, 'server', 'server.js')).href)) as typeof ServerModule;
    const electron = new FakeElectron({ userDataDir: fs.mkdtempSync(path.join(tempRoot, 'user-data-')), isPackaged: true });
    const desktop = desktopApp.runDesktopApp({
      electron,
      argv: ['/opt/QR Sandbox/qr-sandbox'],
      cwd: tempRoot,
      platform: 'linux',
      preloadPath: path.join(appDir, 'preload', 'preload.cjs'),
      startServer: (options) => server.startServer({ ...options, logLevel: 'warn' }),
      log: () => {},
    });
    assert.equal(await desktop.started, 'running');
    const window = electron.windows[0];
    const page = window?.loaded[0];
    assert.ok(window && page);
    assert.equal(page.status, rendererSources ? 200 : page.status);
    const connection = (await electron.invoke('qr-sandbox:get-connection', window.webContents.ipcEvent(page.url))) as DesktopConnection;
    const docs = await fetch(`${connection.baseUrl}/api/openapi.json`);
    assert.equal(
      ((await docs.json()) as { info: { version: string } }).info.version,
      pkg.version,
      'server/version.ts finds dist/app/package.json',
    );
    const tasks = await fetch(`${connection.baseUrl}/api/background-tasks?organization_uuid=${connection.organizationUuid}`, {
      headers: { authorization: `Bearer ${connection.apiKey}:${connection.apiSecret}` },
    });
    assert.equal(tasks.status, 200);
    electron.app.quit();
    await desktop.stopped;
    assert.equal(electron.app.quitted, true);
  });
});

/** A stand-in for Electron's unpacked distribution: electron-builder copies it and renames the executable. */
function stubElectronDist(): string {
  const dir = path.join(tempRoot, 'electron-dist');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stub Electron: the real binary is not installed" >&2\nexit 1\n', {
    mode: 0o755,
  });
  fs.writeFileSync(path.join(dir, 'version'), require('electron/package.json').version as string);
  return dir;
}

const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|socket hang up|network/i;

describe('electron-builder --dir (stub Electron)', () => {
  it('packs main, preload, renderer, server code and data, production dependencies, and unpacks better-sqlite3', (t) => {
    if (process.platform !== 'linux') {
      t.skip(`the packaging check runs on Linux (this is ${process.platform}); use npm run dist there`);
      return;
    }
    const output = path.join(tempRoot, 'packages');
    const cli = path.join(rootDir, 'node_modules', 'electron-builder', 'cli.js');
    const result = spawnSync(
      process.execPath,
      [
        cli,
        '--dir',
        '--linux',
        '--x64',
        '--config',
        'electron-builder.yml',
        `-c.electronDist=${stubElectronDist()}`,
        `-c.directories.output=${output}`,
      ],
      { cwd: rootDir, encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CI: '1' }, timeout: 120_000 },
    );
    const log = `${result.stdout}\n${result.stderr}`;
    if (result.status !== 0 && OFFLINE.test(log)) {
      t.skip(`electron-builder wanted the network, which this machine does not have:\n${log.slice(-800)}`);
      return;
    }
    assert.equal(result.status, 0, log);

    const resources = path.join(output, 'linux-unpacked', 'resources');
    assert.ok(fs.existsSync(path.join(output, 'linux-unpacked', 'qr-sandbox')), 'the executable, named qr-sandbox');
    const asar = require('@electron/asar') as { listPackage(archive: string): string[]; extractAll(archive: string, dest: string): void };
    const files = new Set(asar.listPackage(path.join(resources, 'app.asar')).map((file) => file.replaceAll('\\', '/')));
    const expected = [
      '/package.json',
      '/dist/app/main/main.js',
      '/dist/app/preload/preload.cjs',
      '/dist/app/server/server.js',
      '/dist/app/server/app.js',
      '/dist/app/package.json',
      '/node_modules/better-sqlite3/lib/index.js',
      '/node_modules/express/package.json',
      '/node_modules/kysely/package.json',
      ...serverAssets().map((asset) => `/dist/app/${asset}`),
      ...(rendererSources ? ['/dist/app/dist/renderer/index.html'] : []),
    ];
    for (const file of expected) assert.ok(files.has(file), `${file} in app.asar`);
    for (const devOnly of ['electron', 'electron-builder', 'typescript', 'node', 'playwright-core']) {
      assert.ok(!files.has(`/node_modules/${devOnly}`), `devDependency ${devOnly} is not packed`);
    }
    assert.ok(
      ![...files].some((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.includes('/node_modules/')),
      'no TypeScript sources',
    );
    assert.ok(![...files].some((file) => file.startsWith('/node_modules/better-sqlite3/deps/')), 'no SQLite C sources');

    const addon = path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'prebuilds', `linux-${process.arch}.node`);
    assert.ok(fs.statSync(addon).size > 100_000, 'the native addon is a real file outside the asar');

    // The packed tree is complete: its compiled server runs on Node from an extracted copy.
    const extracted = path.join(tempRoot, 'extracted');
    asar.extractAll(path.join(resources, 'app.asar'), extracted);
    fs.cpSync(path.join(resources, 'app.asar.unpacked'), extracted, { recursive: true });
    const dataDir = path.join(tempRoot, 'packed-data');
    const script = `
      const { startServer } = await import('./dist/app/server/server.js');
      const server = await startServer({ dataDir: ${JSON.stringify(dataDir)}, port: 0, logLevel: 'warn' });
      const auth = 'Bearer ' + server.credentials.api_key + ':' + server.credentials.api_secret;
      const tasks = await fetch(server.url + '/api/background-tasks?organization_uuid=' + server.credentials.organization_uuid, { headers: { authorization: auth } });
      const page = await fetch(server.url + '/', { headers: { accept: 'text/html' } });
      console.log(JSON.stringify({ tasks: tasks.status, page: page.status }));
      await server.close();`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: extracted, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const answer = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { tasks: number; page: number };
    assert.equal(answer.tasks, 200);
    if (rendererSources) assert.equal(answer.page, 200, 'the packed GUI is served');
  });
});
