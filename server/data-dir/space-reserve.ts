import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, tightenFile } from './private-files.ts';

/**
 * A file of zeros kept in the data folder, given up when the disk is full so that an import can
 * still record that it failed (its task would otherwise stay PROCESSING: SQLite needs room even to
 * write that), and made again once space is back.
 */
export const SPACE_RESERVE_FILE = 'space-reserve';
const RESERVE_BYTES = 2 * 1024 * 1024;

/** Makes the reserve unless it is there; a disk too full for it is left as it is (tried again later). */
export function keepSpaceReserve(dataDir: string): void {
  const file = path.join(dataDir, SPACE_RESERVE_FILE);
  try {
    if (fs.statSync(file, { throwIfNoEntry: false })?.size === RESERVE_BYTES) return;
    fs.writeFileSync(file, Buffer.alloc(RESERVE_BYTES), { mode: PRIVATE_FILE_MODE });
    tightenFile(file);
  } catch {
    fs.rmSync(file, { force: true });
  }
}

/** Gives the reserve's room back to the drive; false when there was none to give. */
export function releaseSpaceReserve(dataDir: string): boolean {
  const file = path.join(dataDir, SPACE_RESERVE_FILE);
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file, { force: true });
  return true;
}
