/**
 * Attacks 7e and 7f of bench/attacks.bench.ts: a flood of idle connections from loopback while
 * health is polled on fresh connections, and the start checks on the big organization's database.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { QUICK_CHECK_MAX_BYTES } from '../server/db/start-check.ts';
import { copyDataDir, databaseFileOf } from './big-org.ts';
import { percentile, ROOT, round, startChildServer, type ChildServer } from './support.ts';

const run = promisify(execFile);
const HALF_OPEN = Number(process.env.ATTACK_HALF_OPEN ?? 20_000);
/** Idle connections held past the server's 10 s headers timeout, so its own cleanup shows too. */
const HOLD_MS = 15_000;

/** The open files of a process (0 when they cannot be listed, e.g. this process is out of files itself). */
function openFiles(pid: number): number {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** GET /api/health on a connection of its own, as a new client would: ms, or null when it failed. */
function freshHealth(url: string): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(`${url}/api/health`, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/** HALF_OPEN connections from 127.0.0.1 that send nothing, 500 at a time, held HOLD_MS; health polled on fresh connections throughout. */
export async function halfOpenConnections(server: ChildServer) {
  const { hostname, port } = new URL(server.url);
  const pid = server.child.pid ?? 0;
  const open = new Set<net.Socket>();
  let closedByServer = 0;
  let refused = 0;
  let peakFiles = openFiles(pid);
  let done = false;
  const latencies: number[] = [];
  let failed = 0;
  const poller = (async () => {
    while (!done) {
      const ms = await freshHealth(server.url);
      if (ms === null) failed++;
      else latencies.push(ms);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const sampler = setInterval(() => (peakFiles = Math.max(peakFiles, openFiles(pid))), 100);
  const connect = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      socket.on('error', () => {});
      socket.resume(); // reads the server's 408 and close, as a client would
      socket.once('connect', () => {
        open.add(socket);
        resolve();
      });
      socket.once('close', () => {
        if (open.delete(socket)) closedByServer++;
        else refused++;
        resolve();
      });
    });
  const started = performance.now();
  for (let i = 0; i < HALF_OPEN; i += 500) await Promise.all(Array.from({ length: Math.min(500, HALF_OPEN - i) }, connect));
  const openedSeconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, HOLD_MS));
  const heldAtEnd = open.size;
  done = true;
  clearInterval(sampler);
  await poller;
  for (const socket of open) socket.destroy();
  return {
    connections: HALF_OPEN,
    opened_in_s: round(openedSeconds, 1),
    open_after_hold_s: { seconds: HOLD_MS / 1000, open: heldAtEnd },
    closed_by_server: closedByServer,
    refused_or_reset: refused,
    server_open_files_peak: peakFiles,
    fresh_connection_health: {
      count: latencies.length + failed,
      failed,
      p50_ms: round(percentile(latencies, 50)),
      p99_ms: round(percentile(latencies, 99)),
      max_ms: round(Math.max(...latencies, 0)),
    },
  };
}

/** Runs a module snippet in a child Node (so this process, which polls health, is never blocked) and parses its JSON output. */
async function childJson<T>(code: string, env: Record<string, string> = {}): Promise<T> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as T;
}

/** PRAGMA quick_check on the big organization's database (issue 15's sizes), and a server start on a copy of it. */
export async function quickCheckBigDb() {
  const template = await childJson<{ dataDir: string }>(
    "import { bigOrgTemplate } from './bench/big-org.ts'; console.log(JSON.stringify(await bigOrgTemplate()));",
  );
  const file = databaseFileOf(template.dataDir);
  const bytes = fs.statSync(file).size;
  const check = await childJson<{ ms: number; result: string }>(
    "import SQLite from 'better-sqlite3'; const db = new SQLite(process.env.DB, { readonly: true }); const t = performance.now();" +
      "const result = db.pragma('quick_check', { simple: true }); console.log(JSON.stringify({ ms: performance.now() - t, result }));",
    { DB: file },
  );
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-quick-check-'));
  try {
    copyDataDir(template.dataDir, copy);
    const t0 = performance.now();
    const server = await startChildServer(copy);
    const startSeconds = (performance.now() - t0) / 1000;
    await server.stop();
    return {
      database_mb: round(bytes / 1024 / 1024, 0),
      quick_check: {
        seconds: round(check.ms / 1000, 2),
        result: check.result,
        mb_per_s: round(bytes / 1024 / 1024 / (check.ms / 1000), 0),
      },
      checked_whole_at_start: bytes <= QUICK_CHECK_MAX_BYTES,
      start_to_running_s: round(startSeconds, 2),
    };
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
