import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeAppointmentBenchCsv } from './appointment-data.ts';
import { BENCH_GEOCODER_MODULE, OUT, percentile, round, startChildServer, target, type ChildServer } from './support.ts';

/**
 * Issue 4: a 1,000,000-row appointment CSV, background mode, POST to COMPLETED, against
 * sqlite3's `.import --csv` of the same file in the same run; peak RSS of the server process.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
fs.mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, `appointments-${rows}.csv`);
if (!fs.existsSync(file)) writeAppointmentBenchCsv(file, rows);
const bytes = fs.statSync(file).size;

const t0 = performance.now();
execFileSync('/usr/bin/sqlite3', [':memory:', `.import --csv ${file} t`, 'select count(*) from t'], { stdio: 'ignore' });
const sqliteSeconds = (performance.now() - t0) / 1000;

async function importAndPoll(server: ChildServer): Promise<{ seconds: number; pollMs: number[]; task: Record<string, unknown> }> {
  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', await fs.openAsBlob(file), 'appointments-bench.csv');
  const res = await fetch(`${server.url}/api/appointment_schedule/bulk`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const accepted = (await res.json()) as { background_task_uuid?: string };
  if (res.status !== 202 || !accepted.background_task_uuid) throw new Error(`import not accepted: ${res.status} ${JSON.stringify(accepted)}`);
  const pollMs: number[] = [];
  for (;;) {
    const p0 = performance.now();
    const poll = await fetch(`${server.url}/api/background-tasks/uuid/${accepted.background_task_uuid}`, { headers: { authorization: server.auth } });
    const task = (await poll.json()) as Record<string, unknown>;
    pollMs.push(performance.now() - p0);
    if (task.status === 'COMPLETED' || task.status === 'FAILED') return { seconds: (performance.now() - started) / 1000, pollMs, task };
    await new Promise((r) => setTimeout(r, 250));
  }
}

const server = await startChildServer();
let result;
let peakRss: number;
try {
  result = await importAndPoll(server);
} finally {
  peakRss = server.peakRssMb();
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
const results = result.task.results as { upserted?: number; excluded?: number } | null;
const report = {
  bench: 'appointments-csv-1m',
  rows,
  file_mb: round(bytes / 1048576, 1),
  geocoder: process.env.QR_SANDBOX_GEOCODER_MODULE ?? `tiny test geocoder (${BENCH_GEOCODER_MODULE.split('/').pop()})`,
  status: result.task.status,
  error_message: result.task.error_message ?? null,
  upserted: results?.upserted ?? null,
  excluded: results?.excluded ?? null,
  seconds: { import: round(result.seconds), sqlite3_import: round(sqliteSeconds) },
  rows_per_second: Math.round(rows / result.seconds),
  peak_rss_mb: peakRss,
  poll: { count: result.pollMs.length, p50_ms: round(percentile(result.pollMs, 50)), max_ms: round(Math.max(...result.pollMs)) },
  targets: {
    vs_sqlite3_import: target(result.seconds / sqliteSeconds, 3),
    peak_rss_mb: target(peakRss, 300),
    completed_all_rows: target(result.task.status === 'COMPLETED' && results?.upserted === rows ? 0 : 1, 0),
  },
};
console.log(JSON.stringify(report, null, 2));
