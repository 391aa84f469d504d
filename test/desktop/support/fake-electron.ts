/**
 * A fake of the part of the `electron` module that main/ uses (main/electron-api.ts), for tests
 * without the Electron binary. It records what main does (windows, menus, dialogs, shell calls,
 * IPC handlers, session hooks) and lets a test act as the user or the page: click a menu item,
 * answer a dialog, navigate, invoke an IPC channel, quit. A window's loadURL really fetches the
 * page, so a test sees what the window would show.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type {
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  MessageBoxOptions,
  OpenDialogOptions,
  SaveDialogOptions,
} from 'electron';
import type {
  DesktopElectron,
  HeaderMap,
  IpcInvokeEventLike,
  PreventableEvent,
  SafeStorageLike,
  SessionLike,
  WebContentsLike,
  WindowLike,
} from '../../../main/electron-api.ts';

type Listener = (...args: never[]) => unknown;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapped = (...args: never[]) => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== wrapped),
      );
      return listener(...args);
    };
    return this.on(event, wrapped);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => unknown)(...args);
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

export class FakeEvent implements PreventableEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

let nextWebContentsId = 1;

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly id = nextWebContentsId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  reloads = 0;
  reload(): void {
    this.reloads++;
  }
  /** The page navigates (a link, a drop, location.href): true when main let it happen. */
  navigate(url: string, kind: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    const event = new FakeEvent();
    this.emit(kind, event, url);
    return !event.defaultPrevented;
  }
  /** The page calls window.open(url) or follows a target=_blank link. */
  openWindow(url: string): { action: 'deny' } | { action: 'allow' } {
    return this.windowOpenHandler ? this.windowOpenHandler({ url }) : { action: 'allow' };
  }
  /** An IPC event as this web contents' main frame at `frameUrl` would send it. */
  ipcEvent(frameUrl: string): IpcInvokeEventLike {
    return { sender: { id: this.id }, senderFrame: { url: frameUrl } };
  }
}

export interface LoadedPage {
  url: string;
  status: number;
  contentType: string | null;
}

export class FakeSession implements SessionLike {
  headersListener:
    | ((details: { url: string; responseHeaders?: HeaderMap }, callback: (response: { responseHeaders?: HeaderMap }) => void) => void)
    | undefined;
  headersFilter: { urls: string[] } | undefined;
  permissionRequestHandler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
  permissionCheckHandler: ((webContents: unknown, permission: string) => boolean) | undefined;
  readonly webRequest = {
    onHeadersReceived: (
      filter: { urls: string[] },
      listener: (
        details: { url: string; responseHeaders?: HeaderMap },
        callback: (response: { responseHeaders?: HeaderMap }) => void,
      ) => void,
    ) => {
      this.headersFilter = filter;
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void {
    this.permissionCheckHandler = handler;
  }
  /** The headers the window would see for a response with `headers`. */
  responseHeaders(url: string, headers: HeaderMap): HeaderMap | undefined {
    let result: HeaderMap | undefined;
    this.headersListener?.({ url, responseHeaders: headers }, (response) => (result = response.responseHeaders));
    return result;
  }
  requestPermission(permission: string): boolean | undefined {
    let granted: boolean | undefined;
    this.permissionRequestHandler?.({}, permission, (answer) => (granted = answer));
    return granted;
  }
}

/**
 * safeStorage with a keychain of its own: AES-256-GCM under a key made for this fake, so only the
 * same FakeSafeStorage (the same user on the same computer) decrypts what it encrypted.
 */
export class FakeSafeStorage implements SafeStorageLike {
  available: boolean;
  backend: string;
  private readonly key = randomBytes(32);
  constructor(options: { available?: boolean; backend?: string } = {}) {
    this.available = options.available ?? true;
    this.backend = options.backend ?? 'gnome_libsecret';
  }
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available;
  }
  async encryptStringAsync(plainText: string): Promise<Buffer> {
    if (!this.available) throw new Error('Encryption is not available.');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from('v10'), iv, cipher.getAuthTag(), body]);
  }
  async decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    if (encrypted.subarray(0, 3).toString() !== 'v10' || encrypted.length < 31)
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(3, 15));
    decipher.setAuthTag(encrypted.subarray(15, 31));
    try {
      return {
        result: Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8'),
        shouldReEncrypt: false,
      };
    } catch {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    }
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
}

export interface FakeElectronOptions {
  userDataDir: string;
  isPackaged?: boolean;
  /** What requestSingleInstanceLock answers: false plays a second instance. */
  gotSingleInstanceLock?: boolean;
  version?: string;
  safeStorage?: FakeSafeStorage;
}

export class FakeElectron implements DesktopElectron {
  readonly windows: FakeBrowserWindow[] = [];
  readonly ipcHandlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  readonly errorBoxes: { title: string; content: string }[] = [];
  readonly openDialogs: OpenDialogOptions[] = [];
  readonly saveDialogs: SaveDialogOptions[] = [];
  /** Answers of the next dialogs, first in first out; a dialog without an answer is cancelled. */
  readonly openDialogAnswers: string[][] = [];
  readonly saveDialogAnswers: string[] = [];
  readonly messageBoxes: MessageBoxOptions[] = [];
  /** The buttons the user clicks in the next message boxes, first in first out; without one, the box's cancelId (or 0). */
  readonly messageBoxAnswers: number[] = [];
  readonly safeStorage: FakeSafeStorage;
  readonly externalUrls: string[] = [];
  readonly openedPaths: string[] = [];
  readonly revealedPaths: string[] = [];
  applicationMenu: MenuItemConstructorOptions[] | null | undefined;
  readonly defaultSession = new FakeSession();

  readonly app: FakeApp;
  readonly BrowserWindow: new (
    options: BrowserWindowConstructorOptions,
  ) => FakeBrowserWindow;

  constructor(options: FakeElectronOptions) {
    this.app = new FakeApp(options);
    this.safeStorage = options.safeStorage ?? new FakeSafeStorage();
    const electron = this;
    this.BrowserWindow = class extends FakeBrowserWindow {
      constructor(windowOptions: BrowserWindowConstructorOptions) {
        super(windowOptions);
        electron.windows.push(this);
        electron.app.emit('web-contents-created', {}, this.webContents);
      }
    };
  }

  readonly ipcMain = {
    handle: (channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) => {
      if (this.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      this.ipcHandlers.set(channel, listener);
    },
  };

  /** ipcRenderer.invoke(channel, ...args) as sent with `event`; rejects like Electron when no handler exists. */
  async invoke(channel: string, event: IpcInvokeEventLike, ...args: unknown[]): Promise<unknown> {
    const handler = this.ipcHandlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }

  readonly dialog = {
    showOpenDialog: async (_window: object, options: OpenDialogOptions) => {
      this.openDialogs.push(options);
      const filePaths = this.openDialogAnswers.shift();
      return filePaths ? { canceled: false, filePaths } : { canceled: true, filePaths: [] };
    },
    showSaveDialog: async (_window: object, options: SaveDialogOptions) => {
      this.saveDialogs.push(options);
      const filePath = this.saveDialogAnswers.shift();
      return filePath ? { canceled: false, filePath } : { canceled: true };
    },
    showErrorBox: (title: string, content: string) => {
      this.errorBoxes.push({ title, content });
    },
    showMessageBox: async (_window: object, options: MessageBoxOptions) => {
      this.messageBoxes.push(options);
      return { response: this.messageBoxAnswers.shift() ?? options.cancelId ?? 0 };
    },
  };

  readonly shell = {
    openExternal: async (url: string) => {
      this.externalUrls.push(url);
    },
    openPath: async (target: string) => {
      this.openedPaths.push(target);
      return '';
    },
    showItemInFolder: (fullPath: string) => {
      this.revealedPaths.push(fullPath);
    },
  };

  readonly Menu = {
    buildFromTemplate: (template: MenuItemConstructorOptions[]) => ({ template }),
    setApplicationMenu: (menu: object | null) => {
      this.applicationMenu = menu && 'template' in menu ? (menu.template as MenuItemConstructorOptions[]) : null;
    },
  };

  readonly session = { defaultSession: this.defaultSession };

  /** The menu item with this label anywhere in the application menu. */
  menuItem(label: string): MenuItemConstructorOptions | undefined {
    const search = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions | undefined => {
      for (const item of items) {
        if (item.label === label) return item;
        if (Array.isArray(item.submenu)) {
          const found = search(item.submenu as MenuItemConstructorOptions[]);
          if (found) return found;
        }
      }
      return undefined;
    };
    return search(this.applicationMenu ?? []);
  }

  clickMenuItem(label: string): void {
    const item = this.menuItem(label);
    if (!item?.click) throw new Error(`no menu item "${label}"`);
    (item.click as () => void)();
  }
}

export class FakeApp extends Emitter {
  readonly isPackaged: boolean;
  private readonly userDataDir: string;
  private readonly gotLock: boolean;
  private readonly version: string;
  quitRequests = 0;
  /** Set once a quit went through (no before-quit listener prevented it). */
  quitted = false;
  exitCode: number | undefined;
  aboutPanelOptions: object | undefined;
  aboutPanelShown = 0;

  constructor(options: FakeElectronOptions) {
    super();
    this.isPackaged = options.isPackaged ?? false;
    this.userDataDir = options.userDataDir;
    this.gotLock = options.gotSingleInstanceLock ?? true;
    this.version = options.version ?? '0.1.0';
  }
  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  quit(): void {
    this.quitRequests++;
    const event = new FakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.quitted = true;
  }
  exit(exitCode = 0): void {
    this.exitCode = exitCode;
    this.quitted = true;
  }
  getPath(name: 'userData' | 'downloads'): string {
    return name === 'userData' ? this.userDataDir : `${this.userDataDir}/Downloads`;
  }
  getVersion(): string {
    return this.version;
  }
  setAboutPanelOptions(options: object): void {
    this.aboutPanelOptions = options;
  }
  showAboutPanel(): void {
    this.aboutPanelShown++;
  }
}

export class FakeBrowserWindow extends Emitter implements WindowLike {
  readonly webContents = new FakeWebContents();
  readonly options: BrowserWindowConstructorOptions;
  readonly loaded: LoadedPage[] = [];
  visible = false;
  focused = 0;
  minimized = false;
  destroyed = false;

  constructor(options: BrowserWindowConstructorOptions) {
    super();
    this.options = options;
  }
  async loadURL(url: string): Promise<void> {
    const response = await fetch(url, { headers: { accept: 'text/html' } });
    await response.arrayBuffer();
    this.loaded.push({ url, status: response.status, contentType: response.headers.get('content-type') });
    this.emit('ready-to-show');
  }
  show(): void {
    this.visible = true;
  }
  focus(): void {
    this.focused++;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** The user closes the window. */
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}
