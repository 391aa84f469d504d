import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDataTag, writeQrBenchCsv } from './qr-data.ts';
import { benchGeocoderName, importAndPoll, OUT, round, startChildServer, target, type ChildServer } from './support.ts';

/**
 * 1,000,000-row QR code CSV: a dry run (POST ?dry_run=true to its 200 answer) against the real
 * background import of the same file in the same run, each on a fresh server. Issue 10: a dry run
 * is as fast as a real import or faster.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
fs.mkdirSync(OUT, { recursive: true });
const loadStart = os.loadavg()[0] ?? NaN;
const file = path.join(OUT, `qr-${rows}-${benchDataTag()}.csv`);
if (!fs.existsSync(file)) writeQrBenchCsv(file, rows);

async function onFreshServer<T>(run: (server: ChildServer) => Promise<T>): Promise<{ value: T; peakRssMb: number }> {
  const server = await startChildServer();
  try {
    const value = await run(server);
    return { value, peakRssMb: server.peakRssMb() };
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

async function dryRun(server: ChildServer): Promise<{ seconds: number; answer: Record<string, unknown> }> {
  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('dry_run', 'true');
  form.set('file', await fs.openAsBlob(file), 'qr-bench.csv');
  const res = await fetch(`${server.url}/api/qrcodes/bulk`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`dry run failed: ${res.status} ${JSON.stringify(answer)}`);
  return { seconds: (performance.now() - started) / 1000, answer };
}

const dry = await onFreshServer(dryRun);
const real = await onFreshServer((server) => importAndPoll(server, file, 'qr-bench.csv'));
const realResults = real.value.task.results as { inserted?: number; excluded?: number } | null;
const report = {
  bench: 'dry-run-1m',
  rows,
  load_average_1m: { start: round(loadStart), end: round(os.loadavg()[0] ?? NaN) },
  geocoder: benchGeocoderName(),
  dry_run: { inserted: dry.value.answer.inserted, excluded: dry.value.answer.excluded, peak_rss_mb: dry.peakRssMb },
  real_import: { status: real.value.task.status, inserted: realResults?.inserted ?? null, excluded: realResults?.excluded ?? null, peak_rss_mb: real.peakRssMb },
  seconds: { dry_run: round(dry.value.seconds), real_import: round(real.value.seconds) },
  targets: {
    dry_run_vs_real_import: target(dry.value.seconds / real.value.seconds, 1),
    same_counts: target(dry.value.answer.inserted === realResults?.inserted && dry.value.answer.excluded === realResults?.excluded ? 0 : 1, 0),
    peak_rss_mb: target(dry.peakRssMb, 300),
  },
};
console.log(JSON.stringify(report, null, 2));
