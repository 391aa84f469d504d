import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Why a small tmpfs cannot be mounted here (not root, not Linux, no permission), or null when it can. */
export function tmpfsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-tmpfs-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { encoding: 'utf8' });
    if (mounted.status !== 0) return `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || 'mount failed').trim()})`;
    spawnSync('umount', [probe]);
    return null;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

/** A folder with a tmpfs of `megabytes` mounted on it: a small disk that can really fill up. */
export function mountTmpfs(megabytes: number): { dir: string; unmount(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) throw new Error(`mount failed: ${mounted.stderr}`);
  return {
    dir,
    unmount() {
      // Lazily (-l): a process that still holds a file there must not keep the mount, or the folder, behind.
      spawnSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `file` until the drive has no byte left (ENOSPC); returns its size. */
export function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'a');
  let size = 0;
  try {
    for (const chunk of [1024 * 1024, 4096, 1]) {
      const bytes = Buffer.alloc(chunk);
      for (;;) {
        try {
          size += fs.writeSync(fd, bytes);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return size;
}
