/**
 * The desktop app's API for the GUI: `window.qrSandbox`, exposed by preload/preload.cts through
 * contextBridge. In a plain browser it is undefined. The renderer takes these types with
 * `import type { QrSandboxDesktopApi } from '../../preload/api.ts'`; this file holds types only.
 */

/** Where the app's own server listens and the credential the window signs in with. */
export interface DesktopConnection {
  /** http://127.0.0.1:<port>, the same origin the GUI is loaded from. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  organizationUuid: string;
}

/** A file the user chose for an import (menu, button or dropped on the window), read into memory. */
export interface PickedFile {
  name: string;
  size: number;
  /** application/json, text/csv or a workbook's type (.xlsx, .xls, .ods); empty when the extension says nothing. */
  type: string;
  data: Uint8Array;
}

export interface SaveFileRequest {
  /** A file name without folders, e.g. "errors-qr-import.csv"; the dialog starts with it. */
  suggestedName: string;
  data: Uint8Array | string;
}

export interface SavedFile {
  path: string;
}

export interface QrSandboxDesktopApi {
  getConnection(): Promise<DesktopConnection>;
  /** Shows the open dialog for csv, xlsx, xls, ods and json files; null when the user cancels. */
  openImportFile(): Promise<PickedFile | null>;
  /** Shows the save dialog (error reports, templates) and writes the file; null when cancelled. */
  saveFile(request: SaveFileRequest): Promise<SavedFile | null>;
  /** Shows a file the app saved, or anything in the data folder, in the system's file manager. */
  revealInFolder(path: string): Promise<void>;
  appVersion(): Promise<string>;
  /**
   * Files to import that arrive without the GUI asking: File > Import a File... and files dropped
   * on the window where the page did not handle the drop. Returns the unsubscribe function.
   */
  onImportFile(listener: (file: PickedFile) => void): () => void;
}

/** IPC channels between preload and main; both sides are checked against this list. */
export type InvokeChannel =
  | 'qr-sandbox:get-connection'
  | 'qr-sandbox:open-import-file'
  | 'qr-sandbox:save-file'
  | 'qr-sandbox:reveal-in-folder'
  | 'qr-sandbox:app-version';

/** Sent by main to the window: a file picked from the File menu. */
export type MainToRendererChannel = 'qr-sandbox:import-file';
