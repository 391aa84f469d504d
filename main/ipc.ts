import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { DesktopConnection, InvokeChannel, PickedFile, SavedFile } from '../preload/api.ts';
import type { DesktopElectron, IpcInvokeEventLike, WindowLike } from './electron-api.ts';
import { IMPORT_FILE_DIALOG, MAX_IMPORT_FILE_BYTES, readImportFile } from './import-file.ts';

export interface IpcContext {
  electron: Pick<DesktopElectron, 'app' | 'dialog' | 'shell'>;
  /** The app window; IPC from any web contents other than it and otherWindows() is refused. */
  window(): WindowLike | undefined;
  /** Further app windows on GUI pages (opened from a link in the app window). */
  otherWindows?(): WindowLike[];
  /** The running server's connection; undefined while it starts or after it stopped. */
  connection(): DesktopConnection | undefined;
  /** The data folder; its files may be revealed in the file manager. */
  dataDir(): string | undefined;
}

export type IpcHandler = (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>;

/** A plain file name: no folders, nothing the save dialog would read as a path. */
const fileName = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !/[/\\:\0]/.test(name) && name !== '.' && name !== '..', 'must be a file name without folders');

const noArgs = z.tuple([]);
const saveFileArgs = z.tuple([
  z.strictObject({
    suggestedName: fileName,
    data: z.union([
      z.string().max(MAX_IMPORT_FILE_BYTES),
      z.instanceof(Uint8Array).refine((data) => data.byteLength <= MAX_IMPORT_FILE_BYTES, 'is larger than 256 MB'),
    ]),
  }),
]);
const revealArgs = z.tuple([
  z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => path.isAbsolute(p), 'must be an absolute path'),
]);

export class IpcRefusedError extends Error {}

function parseArgs<T>(channel: InvokeChannel, schema: z.ZodType<T>, args: unknown[]): T {
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw new IpcRefusedError(`${channel}: invalid arguments. ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The handler of every channel the preload script invokes; each checks its sender, then its arguments. */
export function createIpcHandlers(ctx: IpcContext): Record<InvokeChannel, IpcHandler> {
  const savedFiles = new Set<string>();

  function trustedWindow(channel: InvokeChannel, event: IpcInvokeEventLike): WindowLike {
    const window = [ctx.window(), ...(ctx.otherWindows?.() ?? [])].find(
      (w) => w && !w.isDestroyed() && w.webContents.id === event.sender.id,
    );
    const connection = ctx.connection();
    const frameUrl = event.senderFrame?.url;
    if (!window || !connection || !frameUrl) {
      throw new IpcRefusedError(`${channel}: refused, the caller is not the QR Sandbox window.`);
    }
    let origin: string;
    try {
      origin = new URL(frameUrl).origin;
    } catch {
      origin = '';
    }
    if (origin !== new URL(connection.baseUrl).origin)
      throw new IpcRefusedError(`${channel}: refused, the caller's page is not QR Sandbox.`);
    return window;
  }

  return {
    'qr-sandbox:get-connection': async (event, ...args) => {
      trustedWindow('qr-sandbox:get-connection', event);
      parseArgs('qr-sandbox:get-connection', noArgs, args);
      const connection = ctx.connection();
      if (!connection) throw new IpcRefusedError('qr-sandbox:get-connection: the server is not running.');
      return connection;
    },
    'qr-sandbox:open-import-file': async (event, ...args): Promise<PickedFile | null> => {
      const window = trustedWindow('qr-sandbox:open-import-file', event);
      parseArgs('qr-sandbox:open-import-file', noArgs, args);
      const picked = await ctx.electron.dialog.showOpenDialog(window, IMPORT_FILE_DIALOG);
      const filePath = picked.filePaths[0];
      if (picked.canceled || !filePath) return null;
      return readImportFile(filePath);
    },
    'qr-sandbox:save-file': async (event, ...args): Promise<SavedFile | null> => {
      const window = trustedWindow('qr-sandbox:save-file', event);
      const [request] = parseArgs('qr-sandbox:save-file', saveFileArgs, args);
      const chosen = await ctx.electron.dialog.showSaveDialog(window, {
        title: 'Save file',
        defaultPath: path.join(ctx.electron.app.getPath('downloads'), request.suggestedName),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      });
      if (chosen.canceled || !chosen.filePath) return null;
      await fs.writeFile(chosen.filePath, request.data);
      savedFiles.add(path.resolve(chosen.filePath));
      return { path: chosen.filePath };
    },
    'qr-sandbox:reveal-in-folder': async (event, ...args) => {
      trustedWindow('qr-sandbox:reveal-in-folder', event);
      const [target] = parseArgs('qr-sandbox:reveal-in-folder', revealArgs, args);
      const resolved = path.resolve(target);
      const dataDir = ctx.dataDir();
      if (!savedFiles.has(resolved) && !(dataDir && isInside(path.resolve(dataDir), resolved))) {
        throw new IpcRefusedError('qr-sandbox:reveal-in-folder: refused, only files saved by the app or in its data folder can be shown.');
      }
      ctx.electron.shell.showItemInFolder(resolved);
    },
    'qr-sandbox:app-version': async (event, ...args) => {
      trustedWindow('qr-sandbox:app-version', event);
      parseArgs('qr-sandbox:app-version', noArgs, args);
      return ctx.electron.app.getVersion();
    },
  };
}

export function registerIpcHandlers(ipcMain: DesktopElectron['ipcMain'], handlers: Record<InvokeChannel, IpcHandler>): void {
  for (const [channel, handler] of Object.entries(handlers)) ipcMain.handle(channel, handler);
}
