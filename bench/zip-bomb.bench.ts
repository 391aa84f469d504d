import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LARGE } from '../test/fixtures/hostile/generate.ts';
import { benchGeocoderName, importOnFreshServer, OUT, round, target } from './support.ts';

/**
 * The hostile corpus's zip bomb (a small .xlsx whose sheet holds 1,000,001 rows) imported in
 * background mode to COMPLETED against a server process: every row inserted, the server still
 * answering /api/health, its peak memory (VmHWM) under 500 MB. npm test refuses the same file in
 * sync mode (test/hardening/hostile-inputs.test.ts); importing all of it takes minutes, so it runs here.
 */
const ROWS = 1_000_001;
const PEAK_MB = 500;
const make = LARGE['xlsx-zip-bomb.xlsx'];
if (!make) throw new Error('test/fixtures/hostile/generate.ts has no xlsx-zip-bomb.xlsx');
fs.mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, 'xlsx-zip-bomb.xlsx');
fs.writeFileSync(file, make());
const loadStart = os.loadavg()[0] ?? NaN;

const {
  result,
  after: healthStatus,
  peakRssMb: peakRss,
} = await importOnFreshServer(file, 'xlsx-zip-bomb.xlsx', async (server) => (await server.request('/api/health')).status);
const results = result.task.results as { inserted?: number; excluded?: number } | null;
console.log(
  JSON.stringify(
    {
      bench: 'zip-bomb',
      rows: ROWS,
      load_average_1m: { start: round(loadStart), end: round(os.loadavg()[0] ?? NaN) },
      file_kb: round(fs.statSync(file).size / 1024, 1),
      geocoder: benchGeocoderName(),
      status: result.task.status,
      inserted: results?.inserted ?? null,
      excluded: results?.excluded ?? null,
      seconds: round(result.seconds),
      health_status_after: healthStatus,
      peak_rss_mb: peakRss,
      targets: {
        completed: target(result.task.status === 'COMPLETED' ? 0 : 1, 0),
        server_answers_after: target(healthStatus === 200 ? 0 : 1, 0),
        peak_rss_mb: target(peakRss, PEAK_MB - 0.001),
      },
    },
    null,
    2,
  ),
);
