/**
 * Imports one file into an in-process server (real worker thread, real database) and prints
 * the seconds from POST to COMPLETED. For profiling the import path:
 *
 *   node --cpu-prof --cpu-prof-dir=bench/out/prof bench/profile-import.ts [rows] [csv|xlsx] [qrcodes|appointments]
 *   NODE_OPTIONS='--cpu-prof --cpu-prof-dir=bench/out/prof' node bench/profile-import.ts FILE [qrcodes|appointments]
 *
 * (NODE_OPTIONS reaches the import worker process too: the profile with the most samples is the import's.)
 * (an XLSX of that many rows must exist: the XLSX benchmark writes it) writes one .cpuprofile per thread (the worker's is the import); bench/profile-summary.ts reads it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../server/server.ts';
import { writeAppointmentBenchCsv } from './appointment-data.ts';
import { benchDataTag, writeQrBenchCsv } from './qr-data.ts';
import { BENCH_GEOCODER_MODULE, OUT, percentile, round } from './support.ts';

const given = process.argv[2] && fs.existsSync(process.argv[2]) ? process.argv[2] : null;
const rows = given ? NaN : Number(process.argv[2] ?? 200_000);
const format = process.argv[3] === 'xlsx' ? 'xlsx' : 'csv';
const appointments = (given ? process.argv[3] : process.argv[4]) === 'appointments';
fs.mkdirSync(OUT, { recursive: true });
const file =
  given ?? (appointments ? path.join(OUT, `appointments-${rows}.csv`) : path.join(OUT, `qr-${rows}-${benchDataTag()}.${format}`));
if (!given && format === 'csv' && !fs.existsSync(file)) (appointments ? writeAppointmentBenchCsv : writeQrBenchCsv)(file, rows);
if (!fs.existsSync(file)) throw new Error(`${file} is missing: the XLSX benchmark (npm run bench -- xlsx) writes it`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-profile-'));
const server = await startServer({ dataDir, port: 0, logLevel: 'warn', imports: { geocoderModule: BENCH_GEOCODER_MODULE, workers: 1 } });
try {
  const credentials = server.credentials;
  if (!credentials) throw new Error('no demo credentials');
  const auth = `Bearer ${credentials.api_key}:${credentials.api_secret}`;
  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', credentials.organization_uuid);
  form.set('file', await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${server.url}${appointments ? '/api/appointment_schedule/bulk' : '/api/qrcodes/bulk'}`, {
    method: 'POST',
    headers: { authorization: auth },
    body: form,
  });
  const { background_task_uuid } = (await res.json()) as { background_task_uuid: string };
  let task: Record<string, unknown>;
  const pollMs: number[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, 25));
    const t0 = performance.now();
    const poll = await fetch(`${server.url}/api/background-tasks/uuid/${background_task_uuid}`, { headers: { authorization: auth } });
    task = (await poll.json()) as Record<string, unknown>;
    pollMs.push(performance.now() - t0);
    if (task.status === 'COMPLETED' || task.status === 'FAILED') break;
  }
  const seconds = (performance.now() - started) / 1000;
  const results = task.results as { inserted?: number; upserted?: number; excluded?: number } | null;
  console.log(
    JSON.stringify({
      file: path.basename(file),
      status: task.status,
      inserted: results?.inserted ?? results?.upserted,
      excluded: results?.excluded,
      seconds: round(seconds),
      us_per_row: round((seconds * 1e6) / Number(results?.inserted ?? results?.upserted ?? rows), 1),
      poll_ms: {
        count: pollMs.length,
        p50: round(percentile(pollMs, 50)),
        p99: round(percentile(pollMs, 99)),
        max: round(Math.max(...pollMs)),
      },
      load_average_1m: round(os.loadavg()[0] ?? NaN),
    }),
  );
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
