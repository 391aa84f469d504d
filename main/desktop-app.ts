import type { DesktopConnection, MainToRendererChannel } from '../preload/api.ts';
import type { SecretCodec } from '../server/remote/profiles.ts';
import { resolveDataDir } from './data-dir.ts';
import { createDemoMenu } from './demo-menu.ts';
import type { DesktopServer } from './desktop-server.ts';
import type { DesktopElectron, WindowLike } from './electron-api.ts';
import { IMPORT_FILE_DIALOG, readImportFile } from './import-file.ts';
import { createIpcHandlers, registerIpcHandlers } from './ipc.ts';
import { buildMenuTemplate } from './menu.ts';
import { safeStorageCodec } from './secret-codec.ts';
import { guardWebContents, mainWindowOptions, secureSession } from './window-security.ts';

export const APP_NAME = 'QR Sandbox';
const IMPORT_FILE_CHANNEL: MainToRendererChannel = 'qr-sandbox:import-file';

/** What the desktop app needs of server/server.ts's RunningServer. */
export interface DesktopAppOptions {
  electron: DesktopElectron;
  /** process.argv of the Electron process. */
  argv: readonly string[];
  cwd: string;
  platform: NodeJS.Platform;
  /** The compiled preload script (dist/app/preload/preload.cjs). */
  preloadPath: string;
  startServer(options: { dataDir: string; port: number; host: string; secretCodec?: SecretCodec }): Promise<DesktopServer>;
  log(message: string): void;
  /** Between simulated events of the Demo menu; default 5 s. */
  demoEventIntervalMs?: number;
}

export type DesktopAppState = 'second-instance' | 'running' | 'failed';

export interface DesktopApp {
  /** Settles once the window is loading the GUI, or start-up ended otherwise. */
  started: Promise<DesktopAppState>;
  /** Settles when a quit has stopped the server (it finished its work and closed the database). */
  stopped: Promise<void>;
  dataDir(): string | undefined;
  server(): DesktopServer | undefined;
  window(): WindowLike | undefined;
}

/**
 * The main process: single-instance lock, the server in-process on a free loopback port, one
 * secured window loading the GUI from that server, IPC, menus, and a quit that waits for the
 * server to close.
 */
export function runDesktopApp(options: DesktopAppOptions): DesktopApp {
  const { electron, log } = options;
  const { app, dialog, shell } = electron;
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let server: DesktopServer | undefined;
  let window: WindowLike | undefined;
  let dataDir: string | undefined;
  let starting: Promise<DesktopServer | undefined> = Promise.resolve(undefined);
  let shutdown: 'running' | 'stopping' | 'done' = 'running';

  const handle: DesktopApp = {
    started: Promise.resolve<DesktopAppState>('second-instance'),
    stopped,
    dataDir: () => dataDir,
    server: () => server,
    window: () => window,
  };

  if (!app.requestSingleInstanceLock()) {
    log(`${APP_NAME} is already running; the open window is brought to the front.`);
    shutdown = 'done';
    resolveStopped();
    app.quit();
    return handle;
  }

  const origin = () => (server ? new URL(server.url).origin : undefined);
  const connection = (): DesktopConnection | undefined =>
    server?.credentials
      ? {
          baseUrl: server.url,
          apiKey: server.credentials.api_key,
          apiSecret: server.credentials.api_secret,
          organizationUuid: server.credentials.organization_uuid,
        }
      : undefined;
  const openExternal = (url: string) => void shell.openExternal(url).catch((error: unknown) => log(`cannot open ${url}: ${String(error)}`));
  const showError = (title: string, error: unknown) => dialog.showErrorBox(title, error instanceof Error ? error.message : String(error));

  /** App windows opened from GUI links, besides the main `window`. */
  const guiWindows = new Set<WindowLike>();
  const openInApp = (url: string) => void openGuiWindow(url).catch((error: unknown) => log(`cannot open ${url}: ${String(error)}`));
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origin, openExternal, openInApp));
  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    if (options.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (server && shutdown === 'running' && (!window || window.isDestroyed())) {
      void openWindow(server).catch((error: unknown) => log(`the window could not load the GUI: ${String(error)}`));
    }
  });
  let applyMenu = () => {};
  const demo = createDemoMenu({
    electron,
    window: () => window,
    server: () => server,
    log,
    changed: () => applyMenu(),
    eventIntervalMs: options.demoEventIntervalMs,
  });

  app.on('before-quit', (event) => {
    if (shutdown === 'done') return;
    event.preventDefault();
    if (shutdown === 'stopping') return;
    shutdown = 'stopping';
    void demo
      .stop()
      .then(() => starting)
      .then((running) => running?.close())
      .catch((error: unknown) => log(`the server did not close cleanly: ${String(error)}`))
      .finally(() => {
        shutdown = 'done';
        server = undefined;
        resolveStopped();
        app.quit();
      });
  });

  registerIpcHandlers(
    electron.ipcMain,
    createIpcHandlers({ electron, window: () => window, otherWindows: () => [...guiWindows], connection, dataDir: () => dataDir }),
  );

  async function openWindow(running: DesktopServer): Promise<void> {
    const created = new electron.BrowserWindow(
      mainWindowOptions({ preloadPath: options.preloadPath, dev: !app.isPackaged, title: APP_NAME }),
    );
    window = created;
    created.once('ready-to-show', () => created.show());
    created.on('closed', () => {
      if (window === created) window = undefined;
    });
    await created.loadURL(`${running.url}/`);
  }

  /** Another window on a GUI page (Ctrl+click on a task); it signs in through the preload like the first. */
  async function openGuiWindow(url: string): Promise<void> {
    const created = new electron.BrowserWindow(
      mainWindowOptions({ preloadPath: options.preloadPath, dev: !app.isPackaged, title: APP_NAME }),
    );
    guiWindows.add(created);
    created.once('ready-to-show', () => created.show());
    created.on('closed', () => guiWindows.delete(created));
    await created.loadURL(url);
  }

  async function importFromMenu(): Promise<void> {
    const target = window;
    if (!target || target.isDestroyed()) return;
    const picked = await dialog.showOpenDialog(target, IMPORT_FILE_DIALOG);
    const filePath = picked.filePaths[0];
    if (picked.canceled || !filePath) return;
    const file = await readImportFile(filePath);
    if (!target.isDestroyed()) target.webContents.send(IMPORT_FILE_CHANNEL, file);
  }

  async function start(): Promise<DesktopAppState> {
    await app.whenReady();
    let running: DesktopServer;
    try {
      dataDir = resolveDataDir(options.argv, app.getPath('userData'), options.cwd);
      const secrets = await safeStorageCodec(electron.safeStorage, options.platform);
      if (secrets.reason) log(`Connection profile secrets are stored unencrypted in the data folder (mode 0600): ${secrets.reason}.`);
      const pending = options.startServer({ dataDir, port: 0, host: '127.0.0.1', secretCodec: secrets.codec });
      starting = pending;
      running = await pending;
      server = running;
    } catch (error) {
      starting = Promise.resolve(undefined);
      showError(`${APP_NAME} could not start`, error);
      shutdown = 'done';
      resolveStopped();
      app.exit(1);
      return 'failed';
    }
    if (shutdown !== 'running') return 'failed';
    const runningDataDir = dataDir;
    const runningUrl = running.url;
    log(`${APP_NAME} server at ${runningUrl}, data folder ${runningDataDir}`);
    const appOrigin = new URL(runningUrl).origin;
    secureSession(electron.session.defaultSession, appOrigin);
    app.setAboutPanelOptions({ applicationName: APP_NAME, applicationVersion: app.getVersion(), copyright: 'MIT License' });
    const actions = {
      importFile: () => void importFromMenu().catch((error: unknown) => showError('Cannot import this file', error)),
      openDataFolder: () =>
        void shell.openPath(runningDataDir).then((problem) => {
          if (problem) showError('Cannot open the data folder', `${runningDataDir}: ${problem}`);
        }),
      openApiDocs: () => openExternal(`${runningUrl}/api/docs`),
      showAbout: () => app.showAboutPanel(),
      resetDemoData: () => void demo.resetDemoData().catch((error: unknown) => showError('Cannot reset the demo data', error)),
      toggleDemoEvents: () => void demo.toggleEvents().catch((error: unknown) => showError('Simulated events', error)),
    };
    applyMenu = () => {
      const demoState = { busy: demo.busy(), eventsRunning: demo.eventsRunning() };
      const menu = buildMenuTemplate(actions, { platform: options.platform, dev: !app.isPackaged, appName: APP_NAME, demo: demoState });
      electron.Menu.setApplicationMenu(electron.Menu.buildFromTemplate(menu));
    };
    applyMenu();
    try {
      await openWindow(running);
    } catch (error) {
      showError(`${APP_NAME} could not open its window`, error);
      app.quit();
      return 'failed';
    }
    return 'running';
  }

  handle.started = start();
  return handle;
}
