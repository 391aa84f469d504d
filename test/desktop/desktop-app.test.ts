import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runDesktopApp } from '../../main/desktop-app.ts';
import type { DesktopServer } from '../../main/desktop-server.ts';
import { RESET_DEMO_DATA_LABEL, SIMULATED_EVENTS_LABEL } from '../../main/menu.ts';
import { SAFE_STORAGE_PROTECTION } from '../../main/secret-codec.ts';
import type { DesktopConnection } from '../../preload/api.ts';
import { openConnection } from '../../server/db/database.ts';
import { DEMO_SITES } from '../../server/demo/seed.ts';
import { profilesPath, saveProfile } from '../../server/remote/profiles.ts';
import { startServer } from '../../server/server.ts';
import { insertTask } from '../../server/tasks/store.ts';
import { FakeElectron, FakeSafeStorage } from './support/fake-electron.ts';
import { taskRow } from '../support/tasks.ts';

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sandbox-desktop-'));
after(() => fs.rmSync(tempRoot, { recursive: true, force: true }));

type StartServer = (options: { dataDir: string; port: number; host: string; logLevel?: string }) => Promise<DesktopServer>;

interface LaunchOptions {
  argv?: string[];
  platform?: NodeJS.Platform;
  gotSingleInstanceLock?: boolean;
  startServer?: StartServer;
  safeStorage?: FakeSafeStorage;
  demoEventIntervalMs?: number;
}

function launch(options: LaunchOptions = {}) {
  const userDataDir = fs.mkdtempSync(path.join(tempRoot, 'user-data-'));
  const electron = new FakeElectron({
    userDataDir,
    gotSingleInstanceLock: options.gotSingleInstanceLock ?? true,
    safeStorage: options.safeStorage,
  });
  const logs: string[] = [];
  const started: DesktopServer[] = [];
  const desktop = runDesktopApp({
    electron,
    argv: ['/usr/lib/electron', '.', ...(options.argv ?? [])],
    cwd: tempRoot,
    platform: options.platform ?? 'linux',
    preloadPath: '/app/preload/preload.cjs',
    startServer: async (serverOptions) => {
      const server = await (options.startServer ?? startServer)({ ...serverOptions, logLevel: 'warn' });
      started.push(server);
      return server;
    },
    log: (line) => logs.push(line),
    demoEventIntervalMs: options.demoEventIntervalMs,
  });
  /** Quits as the user would, and waits until the server stopped. */
  const quit = async () => {
    electron.app.quit();
    await desktop.stopped;
  };
  return { electron, desktop, userDataDir, logs, started, quit };
}

async function connectionOf(electron: FakeElectron): Promise<DesktopConnection> {
  const window = electron.windows[0];
  assert.ok(window, 'a window was opened');
  const page = window.loaded[0]?.url;
  assert.ok(page);
  return (await electron.invoke('qr-sandbox:get-connection', window.webContents.ipcEvent(page))) as DesktopConnection;
}

describe('desktop app start-up', () => {
  it('starts the server on a loopback port with data in userData and opens one secured window on it', async () => {
    const { electron, desktop, userDataDir, quit } = launch();
    assert.equal(await desktop.started, 'running');
    const server = desktop.server();
    assert.ok(server);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(server.url).port, '8787', 'a free port, not the headless default');
    assert.equal(desktop.dataDir(), path.join(userDataDir, 'data'));
    assert.ok(fs.existsSync(path.join(userDataDir, 'data', 'credentials.json')));

    assert.equal(electron.windows.length, 1);
    const window = electron.windows[0];
    assert.ok(window);
    assert.equal(window.options.webPreferences?.preload, '/app/preload/preload.cjs');
    assert.equal(window.options.webPreferences?.sandbox, true);
    assert.equal(window.options.webPreferences?.devTools, true, 'not packaged: development');
    assert.deepEqual(
      window.loaded.map((page) => page.url),
      [`${server.url}/`],
    );
    // 200 with the GUI, or 503 with the server's "GUI not built" explanation when dist/renderer is absent.
    assert.ok([200, 503].includes(window.loaded[0]?.status ?? 0), `the server answered the page (${window.loaded[0]?.status})`);
    assert.match(window.loaded[0]?.contentType ?? '', /text\/html/);
    assert.equal(window.visible, true, 'shown once ready');
    assert.equal(window.webContents.navigate('https://example.com/'), false, 'the window is guarded');
    assert.deepEqual(electron.defaultSession.headersFilter, { urls: [`${server.url}/*`] });
    await quit();
  });

  it('signs the window in: the preload connection is a working admin credential of this server', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    const connection = await connectionOf(electron);
    assert.equal(connection.baseUrl, desktop.server()?.url);
    const response = await fetch(`${connection.baseUrl}/api/background-tasks?organization_uuid=${connection.organizationUuid}`, {
      headers: { authorization: `Bearer ${connection.apiKey}:${connection.apiSecret}` },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { items: [], total: 0, pages: 0, page: 1, per_page: 10 });
    await quit();
  });

  it('a GUI page opened in a new window (Ctrl+click on a task) opens in a second app window, signed in the same way', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    const url = `${desktop.server()?.url}/tasks/some-task`;
    assert.deepEqual(electron.windows[0]?.webContents.openWindow(url), { action: 'deny' }, "not a window of the page's own making");
    for (let i = 0; i < 200 && !electron.windows[1]?.loaded.length; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = electron.windows[1];
    assert.ok(second, 'a second app window');
    assert.deepEqual(
      second.loaded.map((page) => page.url),
      [url],
    );
    assert.equal(second.options.webPreferences?.preload, '/app/preload/preload.cjs', 'its preload signs it in');
    assert.equal(second.options.webPreferences?.sandbox, true);
    assert.deepEqual(electron.externalUrls, [], 'not sent to the browser, which is not signed in');
    assert.equal(second.webContents.navigate('https://example.com/'), false, 'guarded like the first');
    const connection = (await electron.invoke('qr-sandbox:get-connection', second.webContents.ipcEvent(url))) as DesktopConnection;
    assert.equal(connection.baseUrl, desktop.server()?.url, 'its preload may ask for the connection');
    second.close();
    await assert.rejects(
      electron.invoke('qr-sandbox:get-connection', second.webContents.ipcEvent(url)),
      /not the QR Sandbox window/,
      'a closed window is trusted no more',
    );
    await quit();
  });

  it('uses --data-dir instead of userData, relative to the working directory', async () => {
    const { desktop, userDataDir, quit } = launch({ argv: ['--data-dir', 'portable-demo'] });
    await desktop.started;
    assert.equal(desktop.dataDir(), path.join(tempRoot, 'portable-demo'));
    assert.ok(fs.existsSync(path.join(tempRoot, 'portable-demo', 'credentials.json')));
    assert.ok(!fs.existsSync(path.join(userDataDir, 'data')));
    await quit();
    const second = launch({ argv: [`--data-dir=${path.join(tempRoot, 'portable-demo')}`] });
    await second.desktop.started;
    assert.equal(second.desktop.dataDir(), path.join(tempRoot, 'portable-demo'));
    await second.quit();
  });

  it('a second instance starts nothing and quits; the first one comes to the front', async () => {
    const second = launch({ gotSingleInstanceLock: false });
    assert.equal(await second.desktop.started, 'second-instance');
    assert.equal(second.started.length, 0);
    assert.equal(second.electron.windows.length, 0);
    assert.equal(second.electron.app.quitted, true);

    const first = launch();
    await first.desktop.started;
    const window = first.electron.windows[0];
    assert.ok(window);
    window.minimized = true;
    first.electron.app.emit('second-instance');
    assert.equal(window.minimized, false);
    assert.equal(window.focused, 1);
    await first.quit();
  });

  it('shows why it cannot start and exits with status 1', async () => {
    const blocker = path.join(tempRoot, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    const { electron, desktop } = launch({ argv: ['--data-dir', blocker] });
    assert.equal(await desktop.started, 'failed');
    assert.equal(electron.errorBoxes[0]?.title, 'QR Sandbox could not start');
    assert.ok((electron.errorBoxes[0]?.content ?? '').length > 0);
    assert.equal(electron.app.exitCode, 1);
    assert.equal(electron.windows.length, 0);
    await desktop.stopped;
  });

  it('explains a window that cannot load the GUI, and quits closing the server', async () => {
    let closed = 0;
    const { electron, desktop } = launch({
      startServer: async () => ({ url: 'http://127.0.0.1:1', credentials: null, close: async () => void closed++ }),
    });
    assert.equal(await desktop.started, 'failed');
    assert.equal(electron.errorBoxes[0]?.title, 'QR Sandbox could not open its window');
    await desktop.stopped;
    assert.equal(closed, 1);
    assert.equal(electron.app.quitted, true);
  });

  it('explains a --data-dir without a folder', async () => {
    const { electron, desktop } = launch({ argv: ['--data-dir'] });
    assert.equal(await desktop.started, 'failed');
    assert.match(electron.errorBoxes[0]?.content ?? '', /--data-dir needs a folder/);
    assert.equal(electron.app.exitCode, 1);
  });
});

describe('desktop app menus', () => {
  it('File > Import a File… reads the chosen file and hands it to the window', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    const file = path.join(tempRoot, 'import.json');
    fs.writeFileSync(file, '[{"location":"1 Main St"}]');
    electron.openDialogAnswers.push([file]);
    electron.clickMenuItem('Import a File…');
    const window = electron.windows[0];
    assert.ok(window);
    while (window.webContents.sent.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const [message] = window.webContents.sent;
    assert.equal(message?.channel, 'qr-sandbox:import-file');
    const picked = message?.args[0] as { name: string; type: string; data: Uint8Array };
    assert.equal(picked.name, 'import.json');
    assert.equal(picked.type, 'application/json');
    assert.equal(Buffer.from(picked.data).toString(), '[{"location":"1 Main St"}]');
    assert.equal(electron.menuItem('Import a File…')?.accelerator, 'CmdOrCtrl+O');
    await quit();
  });

  it('File > Import a File… explains a file it cannot read', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    electron.openDialogAnswers.push([path.join(tempRoot, 'missing.csv')]);
    electron.clickMenuItem('Import a File…');
    while (electron.errorBoxes.length === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(electron.errorBoxes[0]?.title, 'Cannot import this file');
    assert.match(electron.errorBoxes[0]?.content ?? '', /missing\.csv cannot be read/);
    assert.deepEqual(electron.windows[0]?.webContents.sent, []);
    await quit();
  });

  it('opens the data folder, the API reference in the browser, and the about panel', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    electron.clickMenuItem('Open Data Folder');
    electron.clickMenuItem('API Reference');
    electron.clickMenuItem('About QR Sandbox');
    assert.deepEqual(electron.openedPaths, [desktop.dataDir()]);
    assert.deepEqual(electron.externalUrls, [`${desktop.server()?.url}/api/docs`]);
    assert.equal(electron.app.aboutPanelShown, 1);
    const docs = await fetch(`${desktop.server()?.url}/api/docs`);
    assert.equal(docs.status, 200);
    await quit();
  });

  it('has no DevTools item in the packaged app', async () => {
    const userDataDir = fs.mkdtempSync(path.join(tempRoot, 'packaged-'));
    const electron = new FakeElectron({ userDataDir, isPackaged: true });
    const desktop = runDesktopApp({
      electron,
      argv: ['/opt/QR Sandbox/qr-sandbox'],
      cwd: tempRoot,
      platform: 'linux',
      preloadPath: '/p.cjs',
      startServer: (options) => startServer({ ...options, logLevel: 'warn' }),
      log: () => {},
    });
    await desktop.started;
    const roles = JSON.stringify(electron.applicationMenu);
    assert.ok(!roles.includes('toggleDevTools'));
    assert.equal(electron.windows[0]?.options.webPreferences?.devTools, false);
    electron.app.quit();
    await desktop.stopped;
  });
});

describe('desktop app quit', () => {
  it('waits for the server to close (database closed, port released) before quitting', async () => {
    const { electron, desktop, started } = launch();
    await desktop.started;
    const server = started[0];
    assert.ok(server);
    let closed = false;
    const close = server.close.bind(server);
    server.close = async () => {
      await close();
      closed = true;
    };
    electron.app.quit();
    assert.equal(electron.app.quitted, false, 'the first quit is held while the server closes');
    await desktop.stopped;
    assert.equal(closed, true);
    assert.equal(electron.app.quitted, true, 'then the app quits');
    assert.equal(electron.app.quitRequests, 2);
    await assert.rejects(fetch(`${server.url}/api/openapi.json`), 'nothing listens any more');
    // The database was closed: the same data folder starts again at once.
    const again = await startServer({ dataDir: desktop.dataDir() ?? '', port: 0, logLevel: 'warn' });
    await again.close();
  });

  it('closing the last window quits on Linux and Windows, not on macOS', async () => {
    const linux = launch({ platform: 'linux' });
    await linux.desktop.started;
    linux.electron.windows[0]?.close();
    linux.electron.app.emit('window-all-closed');
    await linux.desktop.stopped;
    assert.equal(linux.electron.app.quitted, true);

    const mac = launch({ platform: 'darwin' });
    await mac.desktop.started;
    mac.electron.windows[0]?.close();
    mac.electron.app.emit('window-all-closed');
    assert.equal(mac.electron.app.quitRequests, 0);
    mac.electron.app.emit('activate');
    assert.equal(mac.electron.windows.length, 2, 'the dock icon opens a new window');
    await mac.quit();
  });

  it('a quit during start-up closes the server as soon as it is up', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { electron, desktop, started } = launch({
      startServer: async (options) => {
        await gate;
        return startServer(options);
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    electron.app.quit();
    release();
    assert.equal(await desktop.started, 'failed');
    await desktop.stopped;
    assert.equal(electron.windows.length, 0);
    assert.equal(electron.app.quitted, true);
    const server = started[0];
    assert.ok(server);
    await assert.rejects(fetch(`${server.url}/api/openapi.json`));
  });
});

/** Lets the app's pending promises run until `check` holds (bounded). */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function api<T>(connection: DesktopConnection, pathname: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${connection.baseUrl}${pathname}`, {
    ...init,
    headers: { authorization: `Bearer ${connection.apiKey}:${connection.apiSecret}`, 'content-type': 'application/json' },
  });
  const text = await res.text();
  assert.ok(res.ok, `${pathname}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const totalOf = async (connection: DesktopConnection, list: string) =>
  (await api<{ total: number }>(connection, `${list}?organization_uuid=${connection.organizationUuid}&per_page=1`)).total;

describe('desktop app Demo menu', () => {
  it('Reset Demo Data… asks first, saying what it deletes; Cancel changes nothing', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    const connection = await connectionOf(electron);
    await api(connection, '/api/qrcodes', {
      method: 'POST',
      body: JSON.stringify({ organization_uuid: connection.organizationUuid, location: '1 Collins Street, Melbourne VIC 3000' }),
    });
    electron.clickMenuItem(RESET_DEMO_DATA_LABEL);
    await until('the confirmation', () => electron.messageBoxes.length === 1);
    const box = electron.messageBoxes[0];
    assert.equal(box?.type, 'warning');
    assert.deepEqual(box?.buttons, ['Cancel', 'Reset Demo Data']);
    assert.equal(box?.cancelId, 0);
    assert.match(
      box?.detail ?? '',
      /deletes the organization's QR codes and tags, appointments, import tasks .* API keys and settings stay/,
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await totalOf(connection, '/api/qrcodes'), 1, 'cancelled: nothing deleted');
    assert.equal(electron.windows[0]?.webContents.reloads, 0);
    await quit();
  });

  it('Reset Demo Data… confirmed fills the app with the demo data, reloads the window and says what it did', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    const connection = await connectionOf(electron);
    electron.messageBoxAnswers.push(1);
    electron.clickMenuItem(RESET_DEMO_DATA_LABEL);
    await until('the result', () => electron.messageBoxes.length === 2);
    assert.deepEqual(electron.errorBoxes, []);
    const result = electron.messageBoxes[1];
    assert.equal(result?.title, 'Demo data ready');
    assert.match(
      result?.detail ?? '',
      new RegExp(`Added: ${DEMO_SITES} sites \\(5 rows excluded\\), \\d+ appointments over the next 7 days`),
    );
    assert.equal(electron.windows[0]?.webContents.reloads, 1, 'the window shows the new data');
    assert.equal(await totalOf(connection, '/api/qrcodes'), DEMO_SITES);
    assert.ok((await totalOf(connection, '/api/appointment_schedule')) > 100);
    assert.equal(electron.menuItem(RESET_DEMO_DATA_LABEL)?.enabled, true, 'enabled again once done');
    await quit();
  });

  it('Reset Demo Data… while an import runs shows why, in plain words, and deletes nothing', async () => {
    const { electron, desktop, quit } = launch();
    await desktop.started;
    const connection = await connectionOf(electron);
    const db = openConnection(desktop.dataDir() ?? '');
    await insertTask(db.kysely, taskRow(connection, 'running-import', { progress: 40 }));
    await db.close();
    electron.messageBoxAnswers.push(1);
    electron.clickMenuItem(RESET_DEMO_DATA_LABEL);
    await until('the error box', () => electron.errorBoxes.length === 1);
    assert.equal(electron.errorBoxes[0]?.title, 'Cannot reset the demo data');
    assert.match(
      electron.errorBoxes[0]?.content ?? '',
      /^An import of this organization is still running \(task running-import, PROCESSING\)\. Nothing was deleted\./,
    );
    assert.equal(await totalOf(connection, '/api/background-tasks'), 1);
    assert.equal(electron.windows[0]?.webContents.reloads, 0);
    await quit();
  });

  it('Simulated Events starts and stops the event stream; quitting stops it before the server closes', async () => {
    const { electron, desktop, logs, quit } = launch({ demoEventIntervalMs: 100 });
    await desktop.started;
    const connection = await connectionOf(electron);
    await api(connection, '/api/qrcodes', {
      method: 'POST',
      body: JSON.stringify({ organization_uuid: connection.organizationUuid, location: '1 Collins Street, Melbourne VIC 3000' }),
    });
    assert.equal(electron.menuItem(SIMULATED_EVENTS_LABEL)?.checked, false);
    electron.clickMenuItem(SIMULATED_EVENTS_LABEL);
    assert.equal(electron.menuItem(SIMULATED_EVENTS_LABEL)?.checked, true, 'the menu shows it running');
    await until('simulated check-ins', async () => (await totalOf(connection, '/api/service-confirmations')) >= 3);
    electron.clickMenuItem(SIMULATED_EVENTS_LABEL);
    assert.equal(electron.menuItem(SIMULATED_EVENTS_LABEL)?.checked, false);
    electron.clickMenuItem(SIMULATED_EVENTS_LABEL);
    assert.equal(electron.menuItem(SIMULATED_EVENTS_LABEL)?.checked, true, 'and again');
    await quit();
    assert.equal(electron.app.quitted, true);
    assert.deepEqual(
      logs.filter((line) => /demo event not sent/.test(line)),
      [],
      'no event was sent to a closed server',
    );
  });
});

describe('desktop app connection profile secrets', () => {
  it('keeps secrets with safeStorage, encrypting clear-text profiles at start, and uses them', async () => {
    const dataDir = fs.mkdtempSync(path.join(tempRoot, 'profiles-'));
    await saveProfile(dataDir, {
      name: 'from-cli',
      base_url: 'https://service.example',
      api_key: 'k1',
      api_secret: 'clear-secret-from-the-cli',
    });
    const { electron, desktop, quit } = launch({ argv: ['--data-dir', dataDir] });
    await desktop.started;
    const file = () => fs.readFileSync(profilesPath(dataDir), 'utf8');
    assert.ok(!file().includes('clear-secret-from-the-cli'), 'encrypted at start');
    const connection = await connectionOf(electron);
    const saved = await api<{ secret_protection: string }>(connection, '/api/profiles/self', {
      method: 'PUT',
      body: JSON.stringify({ base_url: connection.baseUrl, api_key: connection.apiKey, api_secret: connection.apiSecret }),
    });
    assert.equal(saved.secret_protection, SAFE_STORAGE_PROTECTION);
    assert.ok(!file().includes(connection.apiSecret), 'no clear secret in profiles.json');
    const profiles = (JSON.parse(file()) as { profiles: { name: string; secret_protection: string }[] }).profiles;
    assert.deepEqual(
      profiles.map((p) => [p.name, p.secret_protection]),
      [
        ['from-cli', SAFE_STORAGE_PROTECTION],
        ['self', SAFE_STORAGE_PROTECTION],
      ],
    );
    const session = await api<{ api_key: string }>(connection, '/api/remote/self/api/session');
    assert.equal(session.api_key, connection.apiKey, 'the proxy sent the decrypted secret');
    await quit();
  });

  it('without a keychain keeps them in clear text (mode 0600) and says so', async () => {
    const { electron, desktop, logs, quit } = launch({ safeStorage: new FakeSafeStorage({ backend: 'basic_text' }) });
    await desktop.started;
    assert.ok(
      logs.some((line) =>
        /Connection profile secrets are stored unencrypted in the data folder \(mode 0600\): this Linux desktop has no secret store/.test(
          line,
        ),
      ),
      logs.join('\n'),
    );
    const connection = await connectionOf(electron);
    const saved = await api<{ secret_protection: string }>(connection, '/api/profiles/plain', {
      method: 'PUT',
      body: JSON.stringify({ base_url: 'https://service.example', api_key: 'k', api_secret: 'kept-in-clear' }),
    });
    assert.equal(saved.secret_protection, 'none');
    assert.ok(fs.readFileSync(profilesPath(desktop.dataDir() ?? ''), 'utf8').includes('kept-in-clear'));
    await quit();
  });
});
