import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../data-dir/private-files.ts';
import { SNAPSHOT_NAME_PATTERN, type SnapshotInfo } from './schemas.ts';

export const SNAPSHOTS_DIR = 'snapshots';
const EXTENSION = '.sqlite';

/** The organization's snapshots: DATA_DIR/snapshots/ORGANIZATION_UUID/NAME.sqlite. */
export function snapshotDir(dataDir: string, organizationUuid: string): string {
  return path.join(dataDir, SNAPSHOTS_DIR, organizationUuid);
}

export function snapshotFile(dataDir: string, organizationUuid: string, name: string): string {
  return path.join(snapshotDir(dataDir, organizationUuid), `${name}${EXTENSION}`);
}

/** A temp file beside the snapshot, renamed over it once it is complete. */
export function tempSnapshotFile(dataDir: string, organizationUuid: string, name: string): string {
  const dir = snapshotDir(dataDir, organizationUuid);
  ensurePrivateDir(path.dirname(dir));
  ensurePrivateDir(dir);
  return path.join(dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
}

export function moveIntoPlace(temp: string, file: string): void {
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

export function removeFile(file: string): void {
  fs.rmSync(file, { force: true });
  for (const extra of ['-journal', '-wal', '-shm']) fs.rmSync(`${file}${extra}`, { force: true });
}

/** The organization's snapshots, newest first. */
export function listSnapshotFiles(dataDir: string, organizationUuid: string): SnapshotInfo[] {
  const dir = snapshotDir(dataDir, organizationUuid);
  if (!fs.existsSync(dir)) return [];
  const found: SnapshotInfo[] = [];
  for (const entry of fs.readdirSync(dir)) {
    if (!entry.endsWith(EXTENSION)) continue;
    const name = entry.slice(0, -EXTENSION.length);
    if (!SNAPSHOT_NAME_PATTERN.test(name)) continue;
    const stat = fs.statSync(path.join(dir, entry));
    found.push({ name, size_bytes: stat.size, created_on: stat.mtime.toISOString() });
  }
  return found.sort((a, b) => b.created_on.localeCompare(a.created_on) || a.name.localeCompare(b.name));
}
