import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAppointmentBenchCsv } from './appointment-data.ts';
import { bigOrgTemplate, migratedDataDir } from './big-org.ts';
import { appointmentFloor } from './floor.ts';
import { floorReport, importVsFloor, type ImportVsFloor } from './import-vs-floor.ts';
import { BENCH_GEOCODER_MODULE, percentile, round, target, trackLoadAverage, benchDataFile } from './support.ts';

/**
 * A 1,000,000-row appointment CSV, background mode, POST to COMPLETED, each against the same-stack
 * floor (bench/floor.ts) measured in the same run on a copy of the same database: into an empty
 * organization, and into one that already holds 1M QR codes and 1M appointments (bench/big-org.ts).
 * BENCH_POPULATED=0 skips the second case.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const file = benchDataFile(`appointments-${rows}.csv`, (out) => writeAppointmentBenchCsv(out, rows));
const bytes = fs.statSync(file).size;
const loadAverage = trackLoadAverage();

const endpoint = '/api/appointment_schedule/bulk';
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-template-'));
let emptyRun: ImportVsFloor;
try {
  const { organizationUuid } = await migratedDataDir(empty);
  emptyRun = await importVsFloor({ template: empty, organizationUuid, file, endpoint, floor: appointmentFloor });
  process.stderr.write(`empty organization: ${JSON.stringify(floorReport(emptyRun))}\n`);
} finally {
  fs.rmSync(empty, { recursive: true, force: true });
}

let populated: { run: ImportVsFloor; template: Awaited<ReturnType<typeof bigOrgTemplate>> } | null = null;
if (process.env.BENCH_POPULATED !== '0') {
  const template = await bigOrgTemplate();
  populated = {
    template,
    run: await importVsFloor({
      template: template.dataDir,
      organizationUuid: template.organizationUuid,
      file,
      endpoint,
      floor: appointmentFloor,
    }),
  };
}

const upserted = (run: ImportVsFloor) => (run.task.results as { upserted?: number } | null)?.upserted ?? null;
const complete = (run: ImportVsFloor) => run.task.status === 'COMPLETED' && upserted(run) === rows;
const caseReport = (run: ImportVsFloor) => ({
  status: run.task.status,
  error_message: run.task.error_message ?? null,
  upserted: upserted(run),
  seconds: floorReport(run),
  rows_per_second: Math.round(rows / run.seconds),
  peak_rss_mb: run.peakRssMb,
  worker_peak_rss_mb: run.workerPeakRssMb,
  poll: { count: run.pollMs.length, p50_ms: round(percentile(run.pollMs, 50)), max_ms: round(Math.max(...run.pollMs)) },
});
const report = {
  bench: 'appointments-csv-1m',
  rows,
  file_mb: round(bytes / 1048576, 1),
  load_average_1m: loadAverage(),
  geocoder: process.env.QR_SANDBOX_GEOCODER_MODULE ?? `tiny test geocoder (${BENCH_GEOCODER_MODULE.split('/').pop()})`,
  empty_organization: caseReport(emptyRun),
  populated_organization: populated
    ? {
        holds: populated.template.sizes,
        populate_seconds: populated.template.populateSeconds === null ? 'reused' : round(populated.template.populateSeconds),
        ...caseReport(populated.run),
      }
    : 'skipped (BENCH_POPULATED=0)',
  targets: {
    empty_vs_floor: target(emptyRun.ratio, 2),
    ...(populated
      ? { populated_vs_floor: target(populated.run.ratio, 2), populated_peak_rss_mb: target(populated.run.peakRssMb, 300) }
      : {}),
    peak_rss_mb: target(emptyRun.peakRssMb, 300),
    worker_peak_rss_mb: target(emptyRun.workerPeakRssMb, 300),
    completed_all_rows: target(complete(emptyRun) && (!populated || complete(populated.run)) ? 0 : 1, 0),
  },
};
console.log(JSON.stringify(report, null, 2));
