import fs from 'node:fs/promises';
import path from 'node:path';
import type { OpenDialogOptions } from 'electron';
import type { PickedFile } from '../preload/api.ts';

/** The server's default upload limit (docs/hardening.md, limits). */
export const MAX_IMPORT_FILE_BYTES = 256 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
};

export const IMPORT_FILE_DIALOG: OpenDialogOptions = {
  title: 'Import a file',
  buttonLabel: 'Import',
  properties: ['openFile'],
  filters: [
    { name: 'Import files (CSV, Excel, OpenDocument, JSON)', extensions: ['csv', 'xlsx', 'xls', 'ods', 'json'] },
    { name: 'All files', extensions: ['*'] },
  ],
};

export class ImportFileError extends Error {}

/** Reads a file the user picked for an import; refuses one above the upload limit before reading it. */
export async function readImportFile(filePath: string): Promise<PickedFile> {
  const name = path.basename(filePath);
  let size: number;
  try {
    const stat = await fs.stat(filePath);
    if (!stat.isFile()) throw new ImportFileError(`${name} is not a file.`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`${name} cannot be read: ${(error as Error).message}`);
  }
  if (size > MAX_IMPORT_FILE_BYTES) {
    const mb = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MB`;
    throw new ImportFileError(
      `${name} is too large to import: ${mb(size)}, the limit is ${mb(MAX_IMPORT_FILE_BYTES)}. Split it into smaller files.`,
    );
  }
  const data = new Uint8Array(await fs.readFile(filePath));
  return { name, size: data.byteLength, type: TYPES[path.extname(name).toLowerCase()] ?? '', data };
}
