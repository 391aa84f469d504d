import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ChildServer, startChildServer as startChild } from '../test/support/child-server.ts';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GEOCODER_MODULE } from '../server/imports/engine/geocoder-source.ts';
import type { RowSource } from '../server/imports/sources/source.ts';
import { BENCH_USES_TINY_GEOCODER } from './qr-data.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT = path.join(ROOT, 'bench', 'out');

/** bench/out/<name>, made by `write` unless an earlier run left it there (a name stands for its data: rows, data tag). */
export function benchDataFile(name: string, write: (file: string) => void): string {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  if (!fs.existsSync(file)) write(file);
  return file;
}
/**
 * Benchmarks locate addresses with the real offline geocoder, as users run it; BENCH_GEOCODER=tiny
 * uses the tiny test geocoder (30 suburbs) instead. The child server reads the module from the environment.
 */
export const BENCH_GEOCODER_MODULE = BENCH_USES_TINY_GEOCODER
  ? new URL('../test/support/tiny-geocoder.ts', import.meta.url).href
  : DEFAULT_GEOCODER_MODULE;
process.env.QR_SANDBOX_GEOCODER_MODULE ??= BENCH_GEOCODER_MODULE;
export const benchGeocoderName = () => (process.env.QR_SANDBOX_GEOCODER_MODULE ?? BENCH_GEOCODER_MODULE).split('/').pop() ?? '';

export { startChildServer, type ChildServer } from '../test/support/child-server.ts';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The 1-minute load average now; the function answered gives it then and at its call ({ start, end }): a busy machine explains a slow run. */
export function trackLoadAverage(): () => { start: number; end: number } {
  const start = os.loadavg()[0] ?? NaN;
  return () => ({ start: round(start), end: round(os.loadavg()[0] ?? NaN) });
}

/**
 * Uploads a file to an import endpoint (background; default /api/qrcodes/bulk) and polls the task back to back until it
 * ends, timing every poll. Returns seconds from POST to COMPLETED and the poll latencies.
 */
export async function importAndPoll(
  server: ChildServer,
  file: string,
  filename: string,
  endpoint = '/api/qrcodes/bulk',
): Promise<{ seconds: number; uploadSeconds: number; pollMs: number[]; task: Record<string, unknown> }> {
  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', await fs.openAsBlob(file), filename);
  const res = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const accepted = (await res.json()) as { background_task_uuid?: string };
  if (res.status !== 202 || !accepted.background_task_uuid)
    throw new Error(`import not accepted: ${res.status} ${JSON.stringify(accepted)}`);
  const uploadSeconds = (performance.now() - started) / 1000;
  const pollMs: number[] = [];
  for (;;) {
    const t0 = performance.now();
    const poll = await fetch(`${server.url}/api/background-tasks/uuid/${accepted.background_task_uuid}`, {
      headers: { authorization: server.auth },
    });
    const task = (await poll.json()) as Record<string, unknown>;
    pollMs.push(performance.now() - t0);
    if (task.status === 'COMPLETED' || task.status === 'FAILED')
      return { seconds: (performance.now() - started) / 1000, uploadSeconds, pollMs, task };
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Target {
  limit: number;
  value: number;
  pass: boolean;
}

export function target(value: number, limit: number): Target {
  return { limit, value: round(value), pass: value <= limit };
}

/** Reads an import source to its end and returns how many data rows it gave. */
export async function countSourceRows(source: RowSource): Promise<number> {
  let count = 0;
  await source.read({
    onHeader() {},
    onRows(chunk) {
      count += chunk.length;
    },
  });
  return count;
}

/**
 * Imports a file once on a fresh child server (its own data dir, removed after), as a user's
 * first import after starting it; answers importAndPoll's result, the answer of `after` (asked
 * before the server stops) and the server's peak RSS.
 */
export async function importOnFreshServer<T = undefined>(
  file: string,
  filename: string,
  after?: (server: ChildServer) => Promise<T>,
): Promise<{ result: Awaited<ReturnType<typeof importAndPoll>>; after: T | undefined; peakRssMb: number }> {
  const server = await startChild();
  try {
    const result = await importAndPoll(server, file, filename);
    return { result, after: after ? await after(server) : undefined, peakRssMb: server.peakRssMb() };
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
