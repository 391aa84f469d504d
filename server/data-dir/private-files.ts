/**
 * The data folder holds webhook signing secrets, API key hashes, connection profiles and uploads,
 * so it is private to the user running QR Sandbox: folders 0700, files 0600, whatever the umask.
 * New files are created with those modes; what already exists with looser modes is tightened at
 * start. The data folder itself is tightened only when it is QR Sandbox's (new, empty, or holding
 * its database); a folder that holds other things keeps its mode and only our files are tightened.
 * Windows has no such modes; there the folder's ACL (the user's profile) protects it.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const applies = process.platform !== 'win32';

function tighten(target: string, mode: number): boolean {
  if (!applies) return false;
  try {
    const current = fs.statSync(target).mode & 0o777;
    if ((current & ~mode) === 0) return false;
    fs.chmodSync(target, current & mode);
    return true;
  } catch {
    return false; // gone meanwhile, or not ours to change: nothing to tighten
  }
}

/** Creates the folder (and parents) 0700, or tightens it when it exists with a looser mode. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Creates the file empty with mode 0600 unless it exists, and tightens it when it is looser. */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  tighten(file, PRIVATE_FILE_MODE);
}

/** Tightens a file only when it exists. */
export function tightenFile(file: string): void {
  tighten(file, PRIVATE_FILE_MODE);
}

function isOurFolder(dataDir: string, ownFiles: readonly string[]): boolean {
  if (!fs.existsSync(dataDir)) return true;
  const entries = fs.readdirSync(dataDir);
  return entries.length === 0 || ownFiles.some((name) => entries.includes(name));
}

/**
 * Makes the data folder private before anything is written into it: the folder (when it is ours,
 * see above), then every file and folder we keep there. Returns what could not be made private.
 */
export function secureDataDir(
  dataDir: string,
  own: { files: readonly string[]; dirs: readonly string[]; marker: string },
): { folderLeftAsIs: boolean } {
  const ours = isOurFolder(dataDir, [own.marker]);
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (ours) tighten(dataDir, PRIVATE_DIR_MODE);
  for (const name of own.files) tightenFile(path.join(dataDir, name));
  for (const name of own.dirs) {
    const dir = path.join(dataDir, name);
    if (!fs.existsSync(dir)) continue;
    tighten(dir, PRIVATE_DIR_MODE);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isFile()) tightenFile(path.join(dir, entry.name));
  }
  return { folderLeftAsIs: !ours && applies && (fs.statSync(dataDir).mode & 0o077) !== 0 };
}
