import fs from 'node:fs';
import { TINY_SUBURBS } from '../test/support/tiny-geocoder.ts';

export const QR_BENCH_COLUMNS = ['name', 'location', 'address_line_1', 'suburb', 'state', 'postcode', 'country', 'qr_code_external_reference_id'];

const STREETS = ['Smith Street', 'George Street', 'High Street', 'Station Road', 'Church Street', 'Victoria Parade', 'King Street', 'Park Avenue'];

/** Row i of the benchmark data set: a valid address cycling through the known suburbs. */
export function qrBenchRow(i: number): string[] {
  const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? TINY_SUBURBS[0]!;
  const street = `${(i % 997) + 1} ${STREETS[i % STREETS.length]}`;
  return [`Site ${i}`, `${street}, ${suburb} ${state} ${postcode}`, street, suburb, state, postcode, 'Australia', `BENCH-${i}`];
}

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes an n-row QR import CSV (header + rows) and returns its size in bytes. */
export function writeQrBenchCsv(file: string, rows: number): number {
  const fd = fs.openSync(file, 'w');
  try {
    let buffer = `${QR_BENCH_COLUMNS.join(',')}\r\n`;
    for (let i = 0; i < rows; i++) {
      buffer += `${qrBenchRow(i).map(csvCell).join(',')}\r\n`;
      if (buffer.length > 1 << 20) {
        fs.writeSync(fd, buffer);
        buffer = '';
      }
    }
    fs.writeSync(fd, buffer);
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}
