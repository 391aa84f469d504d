/**
 * One listen per organization and forward URL at a time. Two would share one webhook (listen keeps
 * one per forward URL), so the first to stop would pause it under the other, and each start empties
 * the inbox the other's `wait` counts. The lock is held as the server's is (data-dir/instance-lock.ts):
 * an uncommitted SQLite write transaction on an empty file, which the system drops however the
 * process ends, so a listen killed with -9 never blocks the next. The files are in the data folder
 * (listen-locks/), or a private temp folder when a listen reaches a server by --url without one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile } from '../data-dir/private-files.ts';
import { StartupError } from '../startup-error.ts';

export interface ListenLock {
  release(): void;
}

export interface RunningListen {
  pid: number | null;
  forwardTo: string | null;
}

function lockDir(dataDir: string): string {
  if (fs.existsSync(dataDir)) return path.join(dataDir, 'listen-locks');
  return path.join(os.tmpdir(), `qr-sandbox-listen-${process.getuid?.() ?? 'user'}`);
}

function lockBase(dataDir: string, organization: string, forwardTo: string | null): string {
  const hash = createHash('sha256')
    .update(forwardTo ?? '')
    .digest('hex')
    .slice(0, 16);
  return path.join(lockDir(dataDir), `${organization}-${hash}`);
}

/** Takes the OS lock of base; null when another process holds it. */
function take(base: string): SQLite.Database | null {
  ensurePrivateDir(path.dirname(base));
  ensurePrivateFile(`${base}.lock-os`);
  const held = new SQLite(`${base}.lock-os`);
  try {
    held.pragma('journal_mode = MEMORY');
    held.pragma('busy_timeout = 0');
    held.exec('BEGIN IMMEDIATE');
    return held;
  } catch (error) {
    held.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return null;
    throw error;
  }
}

function holderOf(base: string): RunningListen {
  try {
    const holder = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as { pid?: unknown; forward_to?: unknown };
    return {
      pid: typeof holder.pid === 'number' ? holder.pid : null,
      forwardTo: typeof holder.forward_to === 'string' ? holder.forward_to : null,
    };
  } catch {
    return { pid: null, forwardTo: null };
  }
}

const describeListen = (running: RunningListen) =>
  `listen${running.pid === null ? '' : ` (pid ${running.pid})`} ${running.forwardTo ? `forwarding to ${running.forwardTo}` : 'without --forward-to'}`;

/** Takes the lock of this organization's listen for forwardTo; null when a running listen has it. */
export function tryLockListen(dataDir: string, organization: string, forwardTo: string | null): ListenLock | null {
  const base = lockBase(dataDir, organization, forwardTo);
  const held = take(base);
  if (!held) return null;
  fs.writeFileSync(`${base}.json`, `${JSON.stringify({ pid: process.pid, forward_to: forwardTo })}\n`, { mode: 0o600 });
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      fs.rmSync(`${base}.json`, { force: true });
      held.close();
    },
  };
}

/** Takes the lock of this organization's listen for forwardTo, or throws (exit 2) naming the listen that has it. */
export function lockListen(dataDir: string, organization: string, forwardTo: string | null): ListenLock {
  const lock = tryLockListen(dataDir, organization, forwardTo);
  if (lock) return lock;
  const running = holderOf(lockBase(dataDir, organization, forwardTo));
  throw new StartupError(
    `Another ${describeListen({ ...running, forwardTo })} is already running for this organization. ` +
      'Two would share one webhook, and the first to stop would pause it under the other: stop that one first (Ctrl+C), or give another --forward-to.',
  );
}

/** The listens of this organization running now (their locks held by another process). */
export function runningListens(dataDir: string, organization: string): RunningListen[] {
  const dir = lockDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  const running: RunningListen[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(`${organization}-`) || !name.endsWith('.lock-os')) continue;
    const base = path.join(dir, name.slice(0, -'.lock-os'.length));
    const held = take(base);
    if (held) held.close();
    else running.push(holderOf(base));
  }
  return running;
}

/** Refuses (exit 2) while a listen of the organization runs: what it would do would change that listen's webhook. */
export function refuseWhileListening(dataDir: string, organization: string, what: string): void {
  const running = runningListens(dataDir, organization);
  if (running.length === 0) return;
  throw new StartupError(
    `${what} would remove or change the webhook of ${running.map(describeListen).join(' and ')}, which is running. Stop it first (Ctrl+C), then run this again.`,
  );
}
