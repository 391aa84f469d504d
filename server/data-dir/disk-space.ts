import fs from 'node:fs';
import { keepSpaceReserve } from './space-reserve.ts';

/** Free bytes on the drive that holds `dir`. */
export type FreeBytes = (dir: string) => number;

export const statfsFreeBytes: FreeBytes = (dir) => {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
};

/** An I/O error on a drive with less than this free is taken for the drive being full (SQLite's SQLITE_IOERR hides its errno). */
const NEARLY_FULL_BYTES = 1024 * 1024;
/** The disk counts as full again only once this much more is free than when a write failed. */
const RECOVERED_MARGIN_BYTES = 1024 * 1024;
/** While full, the free space is looked at again at most this often. */
const RECHECK_MS = 1000;

const errorCode = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/** A write refused because the drive (or the user's quota) is full, as Node and SQLite say it. */
export const isNoSpaceError = (error: unknown): boolean => ['ENOSPC', 'EDQUOT', 'SQLITE_FULL'].includes(errorCode(error));

const isIoError = (error: unknown): boolean => {
  const code = errorCode(error);
  return code === 'EIO' || code.startsWith('SQLITE_IOERR');
};

/**
 * Whether the data folder's drive is full: set by a write that failed for want of space, cleared
 * once space has come back (looked at when asked, so it needs no timer and no restart).
 */
export class DiskSpace {
  readonly dataDir: string;
  private readonly freeBytes: FreeBytes;
  private freeWhenFull: number | null = null;
  private checkedAt = 0;

  constructor(dataDir: string, freeBytes: FreeBytes = statfsFreeBytes) {
    this.dataDir = dataDir;
    this.freeBytes = freeBytes;
  }

  /** True (and the disk marked full) when `error` is a write that failed because the drive is full. */
  recognise(error: unknown): boolean {
    const full = isNoSpaceError(error) || (isIoError(error) && this.free() < NEARLY_FULL_BYTES);
    if (full) this.markFull();
    return full;
  }

  markFull(): void {
    this.freeWhenFull = Math.min(this.freeWhenFull ?? Number.POSITIVE_INFINITY, this.free());
    this.checkedAt = Date.now();
  }

  get full(): boolean {
    if (this.freeWhenFull === null) return false;
    if (Date.now() - this.checkedAt >= RECHECK_MS) {
      this.checkedAt = Date.now();
      if (this.free() >= this.freeWhenFull + RECOVERED_MARGIN_BYTES) {
        this.freeWhenFull = null;
        keepSpaceReserve(this.dataDir);
      }
    }
    return this.freeWhenFull !== null;
  }

  /** What a user whose write was refused reads. */
  get message(): string {
    return `The disk is full: free some space on the drive that holds the data folder (${this.dataDir}), then try again.`;
  }

  private free(): number {
    try {
      return this.freeBytes(this.dataDir);
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }
}
