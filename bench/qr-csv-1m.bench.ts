import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { benchDataTag, writeQrBenchCsv } from './qr-data.ts';
import { benchGeocoderName, importAndPoll, OUT, percentile, round, startChildServer, target } from './support.ts';

/**
 * 1,000,000-row QR code CSV, background mode, POST to COMPLETED, against two baselines measured
 * on the same file in the same run: sqlite3's `.import --csv` into :memory: and papaparse alone.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
fs.mkdirSync(OUT, { recursive: true });
const loadStart = os.loadavg()[0] ?? NaN;
const file = path.join(OUT, `qr-${rows}-${benchDataTag()}.csv`);
if (!fs.existsSync(file)) writeQrBenchCsv(file, rows);
const bytes = fs.statSync(file).size;

function timed(run: () => void): number {
  const t0 = performance.now();
  run();
  return (performance.now() - t0) / 1000;
}

const sqliteSeconds = timed(() => execFileSync('/usr/bin/sqlite3', [':memory:', `.import --csv ${file} t`, 'select count(*) from t'], { stdio: 'ignore' }));

const papaStarted = performance.now();
let parsedRows = 0;
await new Promise<void>((resolve, reject) => {
  Papa.parse<string[]>(fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 }), {
    skipEmptyLines: false,
    chunk: (results) => {
      parsedRows += results.data.length;
    },
    complete: () => resolve(),
    error: reject,
  });
});
const papaSeconds = (performance.now() - papaStarted) / 1000;

const server = await startChildServer();
let result;
let peakRss: number;
try {
  result = await importAndPoll(server, file, 'qr-bench.csv');
} finally {
  peakRss = server.peakRssMb();
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
const results = result.task.results as { inserted?: number; excluded?: number } | null;
const p99 = percentile(result.pollMs, 99);
const report = {
  bench: 'qr-csv-1m',
  rows,
  load_average_1m: { start: round(loadStart), end: round(os.loadavg()[0] ?? NaN) },
  file_mb: round(bytes / 1048576, 1),
  geocoder: benchGeocoderName(),
  status: result.task.status,
  inserted: results?.inserted ?? null,
  excluded: results?.excluded ?? null,
  papaparse_rows: parsedRows,
  seconds: { import: round(result.seconds), sqlite3_import: round(sqliteSeconds), papaparse: round(papaSeconds) },
  peak_rss_mb: peakRss,
  poll: { count: result.pollMs.length, p50_ms: round(percentile(result.pollMs, 50)), p99_ms: round(p99), max_ms: round(Math.max(...result.pollMs)) },
  targets: {
    vs_sqlite3_import: target(result.seconds / sqliteSeconds, 2.5),
    vs_papaparse: target(result.seconds / papaSeconds, 1.5),
    peak_rss_mb: target(peakRss, 300),
    poll_p99_ms: target(p99, 50),
    completed_all_rows: target(result.task.status === 'COMPLETED' && results?.inserted === rows ? 0 : 1, 0),
  },
};
console.log(JSON.stringify(report, null, 2));
