import { writeBenchCsv } from './csv-file.ts';
import { benchStreet, distinctStreet } from './street.ts';
import { QR_ECHO_FIELDS } from '../server/qrcodes/import-row.ts';
import { sampleAddresses } from '../server/geocoding/samples.ts';
import { TINY_SUBURBS } from '../test/support/tiny-geocoder.ts';

/** The bench file's columns: a name, the address parts the import reads (docs/api.md), and a reference last. */
export const QR_BENCH_COLUMNS = [
  ...QR_ECHO_FIELDS.filter((field) => field !== 'qr_code_external_reference_id'),
  'qr_code_external_reference_id',
];

/** The tiny test geocoder knows 30 suburbs; the real one every Australian suburb. */
export const BENCH_USES_TINY_GEOCODER = process.env.BENCH_GEOCODER === 'tiny';
/** How many distinct real suburbs the data cycles through (the offline geocoder's sample pool). */
const REAL_SUBURBS = 10_000;

let suburbs: (readonly [string, string, string])[] | undefined;
function benchSuburbs(): (readonly [string, string, string])[] {
  suburbs ??= BENCH_USES_TINY_GEOCODER
    ? TINY_SUBURBS.map((s) => [s[0], s[1], s[2]] as const)
    : sampleAddresses(REAL_SUBURBS).map((s) => [s.suburb, s.state, s.postcode] as const);
  return suburbs;
}

/** Names the data set, so a file generated for one geocoder is not reused with the other. */
export const benchDataTag = () => (BENCH_USES_TINY_GEOCODER ? 'tiny' : `real${REAL_SUBURBS}`);

/** Row i of the benchmark data set: a valid address cycling through many real suburbs. */
export function qrBenchRow(i: number): string[] {
  const list = benchSuburbs();
  const [suburb, state, postcode] = list[i % list.length] ?? list[0]!;
  const street = benchStreet(i);
  return [`Site ${i}`, `${street}, ${suburb} ${state} ${postcode}`, street, suburb, state, postcode, 'Australia', `BENCH-${i}`];
}

/** Writes an n-row QR import CSV (header + rows) and returns its size in bytes. */
export function writeQrBenchCsv(file: string, rows: number): number {
  return writeBenchCsv(file, QR_BENCH_COLUMNS, qrBenchRow, rows);
}

/** The file field admins have (issue 33): no reference column, so every row is matched by name and location. */
export const FIELD_QR_COLUMNS = QR_BENCH_COLUMNS.filter((column) => column !== 'qr_code_external_reference_id');

/** Row i of that file: every street address distinct, suburbs cycling through the real pool. */
export function fieldQrRow(i: number): string[] {
  const list = benchSuburbs();
  const [suburb, state, postcode] = list[i % list.length] ?? list[0]!;
  const street = distinctStreet(i);
  return [`Site ${i}`, `${street}, ${suburb} ${state} ${postcode}`, street, suburb, state, postcode, 'Australia'];
}

export function writeFieldQrCsv(file: string, rows: number): number {
  return writeBenchCsv(file, FIELD_QR_COLUMNS, fieldQrRow, rows);
}
