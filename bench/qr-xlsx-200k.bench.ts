import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { benchDataTag, QR_BENCH_COLUMNS, qrBenchRow } from './qr-data.ts';
import { benchGeocoderName, importOnFreshServer, OUT, percentile, round, target, trackLoadAverage } from './support.ts';

/** 200,000-row QR code XLSX, background mode, POST to COMPLETED, against exceljs's streaming reader reading the same file. */
const rows = Number(process.env.BENCH_XLSX_ROWS ?? 200_000);
fs.mkdirSync(OUT, { recursive: true });
const loadAverage = trackLoadAverage();
const file = path.join(OUT, `qr-${rows}-${benchDataTag()}.xlsx`);
if (!fs.existsSync(file)) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Sites');
  sheet.addRow(QR_BENCH_COLUMNS).commit();
  for (let i = 0; i < rows; i++) {
    const row = qrBenchRow(i);
    // Postcodes as numbers, as Excel stores them.
    sheet.addRow(row.map((cell, c) => (QR_BENCH_COLUMNS[c] === 'postcode' ? Number(cell) : cell))).commit();
  }
  sheet.commit();
  await workbook.commit();
}

const started = performance.now();
let readRows = 0;
const reader = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(file), {
  sharedStrings: 'cache',
  styles: 'cache',
  hyperlinks: 'ignore',
  worksheets: 'emit',
});
for await (const sheet of reader) {
  for await (const row of sheet) if (row) readRows++;
  break;
}
const exceljsSeconds = (performance.now() - started) / 1000;

const { result, peakRssMb: peakRss } = await importOnFreshServer(file, 'qr-bench.xlsx');
const results = result.task.results as { inserted?: number; excluded?: number } | null;
console.log(
  JSON.stringify(
    {
      bench: 'qr-xlsx-200k',
      rows,
      load_average_1m: loadAverage(),
      file_mb: round(fs.statSync(file).size / 1048576, 1),
      geocoder: benchGeocoderName(),
      status: result.task.status,
      inserted: results?.inserted ?? null,
      excluded: results?.excluded ?? null,
      exceljs_rows: readRows,
      seconds: { import: round(result.seconds), exceljs_stream_read: round(exceljsSeconds) },
      peak_rss_mb: peakRss,
      poll: { count: result.pollMs.length, p99_ms: round(percentile(result.pollMs, 99)) },
      targets: {
        vs_exceljs_stream_read: target(result.seconds / exceljsSeconds, 1.5),
        completed_all_rows: target(result.task.status === 'COMPLETED' && results?.inserted === rows ? 0 : 1, 0),
      },
    },
    null,
    2,
  ),
);
