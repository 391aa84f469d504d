/**
 * The part of the `electron` module the main process uses. main/main.ts passes the real module
 * (the compiler checks that it fits); tests pass test/desktop/support/fake-electron.ts.
 */
import type * as Electron from 'electron';

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebContentsLike {
  readonly id: number;
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  send(channel: string, ...args: unknown[]): void;
  reload(): void;
}

export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
}

/** The window a dialog belongs to; Electron wants its own BaseWindow, which WindowLike is a view of. */
export type DialogParent = object;

export interface IpcInvokeEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: { readonly url: string } | null;
}

export type HeaderMap = Record<string, string[]>;

export interface SessionLike {
  readonly webRequest: {
    onHeadersReceived(
      filter: { urls: string[] },
      listener: (
        details: { url: string; resourceType?: string; responseHeaders?: HeaderMap },
        callback: (response: { responseHeaders?: HeaderMap }) => void,
      ) => void,
    ): void;
  };
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
}

/** Electron's safeStorage, through its asynchronous API. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux: which secret store; "basic_text" when there is none. */
  getSelectedStorageBackend(): string;
}

export interface DesktopElectron {
  app: {
    readonly isPackaged: boolean;
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    quit(): void;
    exit(exitCode?: number): void;
    getPath(name: 'userData' | 'downloads'): string;
    getVersion(): string;
    setAboutPanelOptions(options: { applicationName?: string; applicationVersion?: string; copyright?: string; website?: string }): void;
    showAboutPanel(): void;
    on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
    on(event: 'window-all-closed', listener: () => void): unknown;
    on(event: 'second-instance', listener: () => void): unknown;
    on(event: 'activate', listener: () => void): unknown;
    on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
  };
  BrowserWindow: new (options: Electron.BrowserWindowConstructorOptions) => WindowLike;
  ipcMain: {
    handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  };
  dialog: {
    showOpenDialog(window: DialogParent, options: Electron.OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
    showSaveDialog(window: DialogParent, options: Electron.SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
    showErrorBox(title: string, content: string): void;
    showMessageBox(window: DialogParent, options: Electron.MessageBoxOptions): Promise<{ response: number }>;
  };
  shell: {
    openExternal(url: string): Promise<void>;
    openPath(path: string): Promise<string>;
    showItemInFolder(fullPath: string): void;
  };
  Menu: {
    buildFromTemplate(template: Electron.MenuItemConstructorOptions[]): object;
    setApplicationMenu(menu: object | null): void;
  };
  session: {
    readonly defaultSession: SessionLike;
  };
  safeStorage: SafeStorageLike;
}
