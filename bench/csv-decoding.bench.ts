import fs from 'node:fs';
import Papa from 'papaparse';
import { csvSource } from '../server/imports/sources/csv.ts';
import { DEFAULT_IMPORT_LIMITS } from '../server/imports/limits.ts';
import { benchDataTag, writeQrBenchCsv } from './qr-data.ts';
import { countSourceRows, round, target, trackLoadAverage, benchDataFile } from './support.ts';

/**
 * The import's CSV reading layer alone (encoding detection, streaming validated decoding,
 * papaparse) on the 1M-row QR code CSV, each against a floor measured in the same run on the same
 * file: papaparse on `fs.createReadStream(file, { encoding })`, which is how files were read before
 * (no validation, no detection; Windows-1252 read as latin1). Three files: the plain rows (ASCII),
 * and the same rows with an `é` in every row in UTF-8 and in Windows-1252.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const loadAverage = trackLoadAverage();
const file = benchDataFile(`qr-${rows}-${benchDataTag()}.csv`, (out) => writeQrBenchCsv(out, rows));

function accented(encoding: 'utf8' | 'latin1'): string {
  return benchDataFile(`qr-${rows}-${benchDataTag()}-accented-${encoding}.csv`, (out) =>
    fs.writeFileSync(out, Buffer.from(fs.readFileSync(file, 'latin1').replace(/Site /g, 'Sit\u00e9 '), encoding)),
  );
}

async function floor(input: string, encoding: BufferEncoding): Promise<number> {
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(fs.createReadStream(input, { encoding, highWaterMark: 256 * 1024 }), {
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

const cases = {
  ascii: [file, 'utf8'],
  utf8_accented: [accented('utf8'), 'utf8'],
  windows_1252_accented: [accented('latin1'), 'latin1'],
} as const;
const seconds: Record<string, { floor: number; import_source: number }> = {};
const targets: Record<string, ReturnType<typeof target>> = {};
let allRows = true;
for (const [name, [input, encoding]] of Object.entries(cases)) {
  const floorRun = await best(() => floor(input, encoding));
  const sourceRun = await best(() => countSourceRows(csvSource(input, DEFAULT_IMPORT_LIMITS)));
  allRows &&= floorRun.rows === rows && sourceRun.rows === rows;
  seconds[name] = { floor: round(floorRun.seconds), import_source: round(sourceRun.seconds) };
  targets[`${name}_vs_floor`] = target(sourceRun.seconds / floorRun.seconds, 1.15);
}
targets.same_rows = target(allRows ? 0 : 1, 0);
console.log(
  JSON.stringify(
    {
      bench: 'csv-decoding',
      rows,
      rounds,
      load_average_1m: loadAverage(),
      file_mb: round(fs.statSync(file).size / 1048576, 1),
      seconds,
      targets,
    },
    null,
    2,
  ),
);
