import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT = path.join(ROOT, 'bench', 'out');
/** Until the offline gazetteer is merged, benchmarks locate addresses with the tiny test geocoder. */
export const BENCH_GEOCODER_MODULE = new URL('../test/support/tiny-geocoder.ts', import.meta.url).href;

export interface ChildServer {
  url: string;
  auth: string;
  organizationUuid: string;
  child: ChildProcess;
  dataDir: string;
  /** Peak resident set size of the server process so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** The real server as a child process: `node bin/qr-sandbox.mjs serve --port 0 --data-dir D`. */
export async function startChildServer(dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-'))): Promise<ChildServer> {
  const child = spawn(process.execPath, ['bin/qr-sandbox.mjs', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, QR_SANDBOX_GEOCODER_MODULE: process.env.QR_SANDBOX_GEOCODER_MODULE ?? BENCH_GEOCODER_MODULE },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  child.stdout?.resume();
  const credentials = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as {
    organization_uuid: string;
    api_key: string;
    api_secret: string;
  };
  return {
    url,
    auth: `Bearer ${credentials.api_key}:${credentials.api_secret}`,
    organizationUuid: credentials.organization_uuid,
    child,
    dataDir,
    peakRssMb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      return Math.round(kb / 102.4) / 10;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Uploads a file to /api/qrcodes/bulk (background) and polls the task back to back until it
 * ends, timing every poll. Returns seconds from POST to COMPLETED and the poll latencies.
 */
export async function importAndPoll(server: ChildServer, file: string, filename: string): Promise<{ seconds: number; pollMs: number[]; task: Record<string, unknown> }> {
  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', await fs.openAsBlob(file), filename);
  const res = await fetch(`${server.url}/api/qrcodes/bulk`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const accepted = (await res.json()) as { background_task_uuid?: string };
  if (res.status !== 202 || !accepted.background_task_uuid) throw new Error(`import not accepted: ${res.status} ${JSON.stringify(accepted)}`);
  const pollMs: number[] = [];
  for (;;) {
    const t0 = performance.now();
    const poll = await fetch(`${server.url}/api/background-tasks/uuid/${accepted.background_task_uuid}`, { headers: { authorization: server.auth } });
    const task = (await poll.json()) as Record<string, unknown>;
    pollMs.push(performance.now() - t0);
    if (task.status === 'COMPLETED' || task.status === 'FAILED') return { seconds: (performance.now() - started) / 1000, pollMs, task };
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
