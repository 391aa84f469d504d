/**
 * Preload script of the app window. The window is sandboxed, so this is one CommonJS file that
 * requires nothing but 'electron'; it exposes `window.qrSandbox` (preload/api.ts) and nothing else.
 */
import type { DesktopConnection, InvokeChannel, MainToRendererChannel, PickedFile, QrSandboxDesktopApi, SavedFile } from './api.ts';

interface DroppedFile {
  name: string;
  size: number;
  type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}
interface FileDragEvent {
  readonly defaultPrevented: boolean;
  readonly dataTransfer: { readonly files: ArrayLike<DroppedFile> } | null;
  preventDefault(): void;
}
declare const window: {
  addEventListener(type: 'dragover' | 'drop', listener: (event: FileDragEvent) => void): void;
};

const { contextBridge, ipcRenderer } = require('electron') as Pick<typeof import('electron'), 'contextBridge' | 'ipcRenderer'>;

function invoke<T>(channel: InvokeChannel, ...args: unknown[]): Promise<T> {
  return ipcRenderer.invoke(channel, ...args) as Promise<T>;
}

const importListeners = new Set<(file: PickedFile) => void>();

function deliverImportFile(file: PickedFile): void {
  for (const listener of importListeners) listener(file);
}

const importFileChannel: MainToRendererChannel = 'qr-sandbox:import-file';
ipcRenderer.on(importFileChannel, (_event, file: PickedFile) => deliverImportFile(file));

// A file dropped where the page does not take it is handed to the GUI's import, never opened as a page.
window.addEventListener('dragover', (event) => event.preventDefault());
window.addEventListener('drop', (event) => {
  if (event.defaultPrevented) return;
  event.preventDefault();
  for (const file of Array.from(event.dataTransfer?.files ?? [])) {
    void file.arrayBuffer().then((buffer) => deliverImportFile({ name: file.name, size: file.size, type: file.type, data: new Uint8Array(buffer) }));
  }
});

const api: QrSandboxDesktopApi = {
  getConnection: () => invoke<DesktopConnection>('qr-sandbox:get-connection'),
  openImportFile: () => invoke<PickedFile | null>('qr-sandbox:open-import-file'),
  saveFile: (request) => invoke<SavedFile | null>('qr-sandbox:save-file', request),
  revealInFolder: (path) => invoke<void>('qr-sandbox:reveal-in-folder', path),
  appVersion: () => invoke<string>('qr-sandbox:app-version'),
  onImportFile(listener) {
    if (typeof listener !== 'function') throw new TypeError('onImportFile needs a function');
    importListeners.add(listener);
    return () => {
      importListeners.delete(listener);
    };
  },
};

contextBridge.exposeInMainWorld('qrSandbox', api);
