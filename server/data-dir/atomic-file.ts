import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.ts';

/**
 * Writes `file` whole or not at all: a temp file beside it, flushed to disk, renamed over it, and
 * the folder flushed, so a kill or a power cut leaves the old file or the new one, never a part.
 */
export function writeFileAtomic(file: string, text: string): void {
  const temp = `${file}.tmp`;
  const fd = fs.openSync(temp, 'w', PRIVATE_FILE_MODE);
  try {
    if (process.platform !== 'win32') fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, file);
  if (process.platform === 'win32') return; // a folder cannot be opened for fsync there; NTFS journals the rename
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
