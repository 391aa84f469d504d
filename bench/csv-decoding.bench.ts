import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { csvSource } from '../server/imports/sources/csv.ts';
import { benchDataTag, writeQrBenchCsv } from './qr-data.ts';
import { OUT, round, target } from './support.ts';

/**
 * The import's CSV reading layer alone (encoding detection, streaming decode, papaparse), on the
 * 1M-row QR code CSV, against a floor measured in the same run: papaparse on a plain
 * `fs.createReadStream(file, { encoding: 'utf8' })`, which neither validates nor detects anything.
 * The same file is also read as Windows-1252 (its `Site` names get an `é`) to show that path's cost.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
fs.mkdirSync(OUT, { recursive: true });
const loadStart = os.loadavg()[0] ?? NaN;
const file = path.join(OUT, `qr-${rows}-${benchDataTag()}.csv`);
if (!fs.existsSync(file)) writeQrBenchCsv(file, rows);
const cp1252File = path.join(OUT, `qr-${rows}-${benchDataTag()}-cp1252.csv`);
if (!fs.existsSync(cp1252File)) {
  const text = fs.readFileSync(file, 'latin1').replace(/Site /g, 'Sit\u00e9 ');
  fs.writeFileSync(cp1252File, Buffer.from(text, 'latin1'));
}

async function floor(): Promise<number> {
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }), {
      skipEmptyLines: false,
      chunk: (results) => {
        count += results.data.length;
      },
      complete: () => resolve(),
      error: reject,
    });
  });
  return count - 1;
}

async function importSource(input: string): Promise<number> {
  let count = 0;
  await csvSource(input).read({
    onHeader() {},
    onRows(chunk) {
      count += chunk.length;
    },
  });
  return count;
}

async function best(run: () => Promise<number>): Promise<{ seconds: number; rows: number }> {
  let seconds = Infinity;
  let counted = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    counted = await run();
    seconds = Math.min(seconds, (performance.now() - t0) / 1000);
  }
  return { seconds, rows: counted };
}

const floorRun = await best(floor);
const utf8Run = await best(() => importSource(file));
const cp1252Run = await best(() => importSource(cp1252File));
const report = {
  bench: 'csv-decoding',
  rows,
  rounds,
  load_average_1m: { start: round(loadStart), end: round(os.loadavg()[0] ?? NaN) },
  file_mb: round(fs.statSync(file).size / 1048576, 1),
  rows_read: { floor: floorRun.rows, utf8: utf8Run.rows, windows_1252: cp1252Run.rows },
  seconds: { papaparse_plain_utf8_floor: round(floorRun.seconds), import_source_utf8: round(utf8Run.seconds), import_source_windows_1252: round(cp1252Run.seconds) },
  targets: {
    utf8_vs_floor: target(utf8Run.seconds / floorRun.seconds, 1.15),
    windows_1252_vs_floor: target(cp1252Run.seconds / floorRun.seconds, 1.5),
    same_rows: target(utf8Run.rows === rows && cp1252Run.rows === rows ? 0 : 1, 0),
  },
};
console.log(JSON.stringify(report, null, 2));
