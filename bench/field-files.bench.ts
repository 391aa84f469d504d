import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { writeAppointmentBenchCsv } from './appointment-data.ts';
import { bigOrgTemplate, migratedDataDir } from './big-org.ts';
import { appointmentFloor, csvRows, type FloorRows, qrCodeFloor, xlsxRows } from './floor.ts';
import { floorReport, importVsFloor, type ImportVsFloor } from './import-vs-floor.ts';
import { benchDataTag, FIELD_QR_COLUMNS, fieldQrRow, writeFieldQrCsv } from './qr-data.ts';
import { benchGeocoderName, OUT, round, target } from './support.ts';

/**
 * Imports of the files field admins have (issue 33), each against its same-stack floor in the same
 * run (bench/floor.ts), on a fresh server (a cold geocoder counts), at each size of BENCH_SIZES
 * (default 200,000 and 1,000,000 rows):
 * - a QR code CSV with no reference column and every street address distinct (each row is matched
 *   by name and location; the floor looks it up too): target 1.2x;
 * - the appointment CSV into an organization that already holds 200,000 QR codes: target 1.5x;
 * - the QR code file as an Excel workbook (shared strings, postcodes as numbers), against exceljs's
 *   streaming reader plus the same inserts: target 1.5x.
 * BENCH_CASES=qr-csv,appointments,qr-xlsx picks cases; BENCH_ROUNDS (default 1) repeats each and
 * judges the median round. Each import's peak memory is the sum of the resident memory of the
 * server and all its child processes, sampled every 100 ms: at most 400 MB at 200,000 rows and
 * 500 MB at 1,000,000 (issue 43).
 */
const sizes = (process.env.BENCH_SIZES ?? '200000,1000000').split(',').map(Number);
const cases = new Set((process.env.BENCH_CASES ?? 'qr-csv,appointments,qr-xlsx').split(','));
const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const POPULATED = { qrCodes: 200_000, appointments: 0, tasks: 0, deliveries: 0 };
/** Peak memory of all the app's processes during an import, MB: up to 200,000 rows, and above. */
const MEMORY_LIMIT_MB = (rows: number) => (rows <= 200_000 ? 400 : 500);
fs.mkdirSync(OUT, { recursive: true });
const loadStart = os.loadavg()[0] ?? NaN;

async function fieldQrWorkbook(rows: number): Promise<string> {
  const file = path.join(OUT, `field-qr-${rows}-${benchDataTag()}.xlsx`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.partial`;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: partial, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Sites');
  sheet.addRow([...FIELD_QR_COLUMNS]).commit();
  for (let i = 0; i < rows; i++) {
    // Postcodes as numbers, as Excel stores them.
    sheet.addRow(fieldQrRow(i).map((cell, c) => (FIELD_QR_COLUMNS[c] === 'postcode' ? Number(cell) : cell))).commit();
  }
  sheet.commit();
  await workbook.commit();
  fs.renameSync(partial, file);
  return file;
}

function csvFile(name: string, rows: number, write: (file: string, rows: number) => number): string {
  const file = path.join(OUT, `${name}-${rows}-${benchDataTag()}.csv`);
  if (!fs.existsSync(file)) write(file, rows);
  return file;
}

/** Median-ratio round of BENCH_ROUNDS imports of one file against its floor. */
async function measure(input: {
  template: string;
  organizationUuid: string;
  file: string;
  endpoint: string;
  floor: (dbFile: string, file: string, organizationUuid: string, rowsOf?: FloorRows) => Promise<{ seconds: number; rows: number }>;
  rowsOf: FloorRows;
}): Promise<{ median: ImportVsFloor; ratios: number[] }> {
  const rounds: ImportVsFloor[] = [];
  for (let i = 0; i < roundCount; i++) {
    rounds.push(
      await importVsFloor({
        template: input.template,
        organizationUuid: input.organizationUuid,
        file: input.file,
        endpoint: input.endpoint,
        floor: (db, file, org) => input.floor(db, file, org, input.rowsOf),
      }),
    );
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)] as ImportVsFloor;
  return { median, ratios: rounds.map((r) => round(r.ratio)) };
}

const written = (run: ImportVsFloor) => {
  const results = run.task.results as { inserted?: number; upserted?: number } | null;
  return results?.inserted ?? results?.upserted ?? null;
};

const report: Record<string, unknown> = {};
const summary: string[] = [];
const targets: Record<string, ReturnType<typeof target>> = {};
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-template-'));
try {
  const { organizationUuid } = await migratedDataDir(empty);
  const populated = cases.has('appointments') ? await bigOrgTemplate(POPULATED) : null;
  for (const rows of sizes) {
    const plan = [
      {
        name: 'qr-csv',
        limit: 1.2,
        file: () => Promise.resolve(csvFile('field-qr', rows, writeFieldQrCsv)),
        endpoint: '/api/qrcodes/bulk',
        floor: qrCodeFloor,
        rowsOf: csvRows,
        template: { template: empty, organizationUuid },
      },
      {
        name: 'appointments',
        limit: 1.5,
        file: () => Promise.resolve(csvFile('appointments', rows, writeAppointmentBenchCsv)),
        endpoint: '/api/appointment_schedule/bulk',
        floor: appointmentFloor,
        rowsOf: csvRows,
        template: populated ? { template: populated.dataDir, organizationUuid: populated.organizationUuid } : null,
      },
      {
        name: 'qr-xlsx',
        limit: 1.5,
        file: () => fieldQrWorkbook(rows),
        endpoint: '/api/qrcodes/bulk',
        floor: qrCodeFloor,
        rowsOf: xlsxRows,
        template: { template: empty, organizationUuid },
      },
    ];
    for (const step of plan) {
      if (!cases.has(step.name) || !step.template) continue;
      const file = await step.file();
      process.stderr.write(`${step.name} ${rows}: ${path.basename(file)}\n`);
      const { median, ratios } = await measure({ ...step.template, file, endpoint: step.endpoint, floor: step.floor, rowsOf: step.rowsOf });
      const key = `${step.name}-${rows}`;
      report[key] = {
        file_mb: round(fs.statSync(file).size / 1048576, 1),
        status: median.task.status,
        error_message: median.task.error_message ?? null,
        written: written(median),
        seconds: floorReport(median),
        round_ratios: ratios,
        peak_rss_mb: median.peakRssMb,
        worker_peak_rss_mb: median.workerPeakRssMb,
        all_processes: {
          peak_mb: median.memory.peakMb,
          by_process_peak_mb: median.memory.peakByProcessMb,
          at_peak_mb: median.memory.atPeakMb,
          peak_at_seconds: median.memory.peakAtSeconds,
          processes: median.memory.processes,
        },
      };
      summary.push(
        `${key.padEnd(20)} import/floor ${round(median.ratio).toFixed(2)}x (${round(median.seconds).toFixed(2)} s / ${round(median.floorSeconds).toFixed(2)} s)  peak memory ${median.memory.peakMb} MB over ${median.memory.processes} processes`,
      );
      process.stderr.write(`${key}: ${JSON.stringify(report[key])}\n`);
      targets[`${key}_vs_floor`] = target(median.ratio, step.limit);
      targets[`${key}_peak_memory_mb`] = target(median.memory.peakMb, MEMORY_LIMIT_MB(rows));
      targets[`${key}_completed_all_rows`] = target(median.task.status === 'COMPLETED' && written(median) === rows ? 0 : 1, 0);
    }
  }
} finally {
  fs.rmSync(empty, { recursive: true, force: true });
}
process.stderr.write(
  `\n${summary.join('\n')}\nload average (1 min): ${round(loadStart)} at the start, ${round(os.loadavg()[0] ?? NaN)} at the end\n`,
);

console.log(
  JSON.stringify(
    {
      bench: 'field-files',
      geocoder: benchGeocoderName(),
      load_average_1m: { start: round(loadStart), end: round(os.loadavg()[0] ?? NaN) },
      populated_organization_holds: cases.has('appointments') ? POPULATED : null,
      rounds: roundCount,
      ...report,
      targets,
    },
    null,
    2,
  ),
);
