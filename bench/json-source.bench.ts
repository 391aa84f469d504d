import fs from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { DEFAULT_IMPORT_LIMITS } from '../server/imports/limits.ts';
import { jsonSource } from '../server/imports/sources/json.ts';
import { benchDataTag, QR_BENCH_COLUMNS, qrBenchRow } from './qr-data.ts';
import { countSourceRows, round, target, trackLoadAverage, benchDataFile } from './support.ts';

/**
 * The import's JSON reading layer alone (text decoding, JsonArraySplitter, JSON.parse of each
 * element, the import limits) on a QR code JSON array, against two floors measured in the same run
 * on the same file, the three taking turns each round:
 * - json_parse: the whole file read into one string and JSON.parse'd (no streaming, no limits);
 * - streamparser: @streamparser/json, the well-kept streaming parser, fed the raw UTF-8 bytes and
 *   emitting each element ($.*) with no limits, no decoding and no counting of anything. A
 *   replacement of the splitter built on it costs at least this much.
 */
const rows = Number(process.env.BENCH_ROWS ?? 200_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const loadAverage = trackLoadAverage();
const file = benchDataFile(`qr-${rows}-${benchDataTag()}.json`, (out) => writeQrBenchJson(out, rows));

/** An n-element QR import JSON array, one object per line, written in 1 MB pieces. */
function writeQrBenchJson(out: string, n: number): void {
  const fd = fs.openSync(out, 'w');
  try {
    let buffer = '[';
    for (let i = 0; i < n; i++) {
      const row = qrBenchRow(i);
      buffer += `${i === 0 ? '' : ','}\n${JSON.stringify(Object.fromEntries(QR_BENCH_COLUMNS.map((c, j) => [c, row[j]])))}`;
      if (buffer.length > 1 << 20) {
        fs.writeSync(fd, buffer);
        buffer = '';
      }
    }
    fs.writeSync(fd, `${buffer}\n]\n`);
  } finally {
    fs.closeSync(fd);
  }
}

const runs = {
  async json_parse(): Promise<number> {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]).length;
  },
  async streamparser(): Promise<number> {
    let count = 0;
    const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
    parser.onValue = () => {
      count++;
    };
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) parser.write(chunk as Buffer);
    // The parser ends itself after the array's closing ]; not ended means the array was cut short.
    if (!parser.isEnded) parser.end();
    return count;
  },
  import_source: () => countSourceRows(jsonSource(file, DEFAULT_IMPORT_LIMITS)),
};

type Name = keyof typeof runs;
const seconds = { json_parse: Infinity, streamparser: Infinity, import_source: Infinity } satisfies Record<Name, number>;
let allRows = true;
for (let i = 0; i < rounds; i++) {
  for (const name of Object.keys(runs) as Name[]) {
    const t0 = performance.now();
    const counted = await runs[name]();
    seconds[name] = Math.min(seconds[name], (performance.now() - t0) / 1000);
    allRows &&= counted === rows;
  }
}
console.log(
  JSON.stringify(
    {
      bench: 'json-source',
      rows,
      rounds,
      load_average_1m: loadAverage(),
      file_mb: round(fs.statSync(file).size / 1048576, 1),
      seconds: Object.fromEntries(Object.entries(seconds).map(([name, s]) => [name, round(s, 3)])),
      targets: {
        import_source_vs_json_parse: target(seconds.import_source / seconds.json_parse, 1.5),
        // The splitter stays while it is faster than the library alone: a replacement would be slower than this floor.
        import_source_vs_streamparser: target(seconds.import_source / seconds.streamparser, 1.1),
        same_rows: target(allRows ? 0 : 1, 0),
      },
    },
    null,
    2,
  ),
);
