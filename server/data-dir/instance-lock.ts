/**
 * One server per data folder. The server holds an OS lock on qr-sandbox.lock-os for as long as it
 * runs, which the system drops when the process ends, however it ends (kill -9 included), so a
 * lock left behind is never mistaken for a live one and two starts at once cannot both win. Node
 * has no flock(); SQLite's file locks are the OS's on every platform, so the lock is a SQLite
 * write transaction on that empty file, never committed. The holder's pid, and its URL once it
 * listens, are in qr-sandbox.lock for a second start to name; a clean stop removes that file.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { StartupError } from '../startup-error.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { ensurePrivateFile } from './private-files.ts';

export const LOCK_FILE = 'qr-sandbox.lock';
export const OS_LOCK_FILE = 'qr-sandbox.lock-os';

export interface DataDirLock {
  /** Writes the URL the server listens at into the lock file. */
  listening(url: string): void;
  /** Removes the lock file and drops the lock. */
  release(): void;
}

interface Holder {
  pid?: number;
  url?: string;
}

function holderOf(lockFile: string): Holder {
  try {
    return JSON.parse(fs.readFileSync(lockFile, 'utf8')) as Holder;
  } catch {
    return {};
  }
}

function inUse(holder: Holder): string {
  const advice = 'stop it first or use --data-dir for another folder.';
  if (holder.url) return `QR Sandbox is already running with this data folder at ${holder.url} (pid ${holder.pid}); ${advice}`;
  if (holder.pid) return `QR Sandbox is already starting with this data folder (pid ${holder.pid}); ${advice}`;
  return `QR Sandbox is already starting with this data folder; ${advice}`;
}

/** Takes the data folder for this process, or throws a StartupError naming the server that has it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const lockFile = path.join(dataDir, LOCK_FILE);
  const osLockFile = path.join(dataDir, OS_LOCK_FILE);
  ensurePrivateFile(osLockFile);
  const held = new SQLite(osLockFile);
  try {
    held.pragma('journal_mode = MEMORY'); // no journal file beside it: nothing is ever written
    held.pragma('busy_timeout = 0');
    held.exec('BEGIN IMMEDIATE');
  } catch (error) {
    held.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new StartupError(inUse(holderOf(lockFile)));
    throw error;
  }
  const write = (url?: string) => {
    try {
      writeFileAtomic(lockFile, `${JSON.stringify({ pid: process.pid, url })}\n`);
    } catch {
      // A full disk: the lock still holds, only a second start's message cannot name this server's address.
    }
  };
  write();
  let released = false;
  return {
    listening: (url) => write(url),
    release() {
      if (released) return;
      released = true;
      fs.rmSync(lockFile, { force: true });
      // qr-sandbox.lock-os stays: a start that opened it just before a removal would lock a file no one else sees.
      held.close();
    },
  };
}
