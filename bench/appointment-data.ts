import { writeBenchCsv } from './csv-file.ts';
import { benchStreet } from './street.ts';
import { APPOINTMENT_FIELDS } from '../server/appointments/fields.ts';
import { TINY_SUBURBS } from '../test/support/tiny-geocoder.ts';

/** The import's columns (docs/imports.md) but organization_uuid, which the upload names as a form field. */
export const APPOINTMENT_BENCH_COLUMNS = APPOINTMENT_FIELDS.filter((field) => field !== 'organization_uuid');
const SERVICES = ['Plumbing', 'Cleaning', 'Pest Control', 'Garden Maintenance'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Row i of the benchmark data set: a valid appointment of a demo service, 5,000 tags on 2,000
 * addresses the test geocoder knows, starts on quarter hours through 2026 (including the DST days).
 */
export function appointmentBenchRow(i: number): string[] {
  const site = i % 2000;
  const [suburb, state, postcode] = TINY_SUBURBS[site % TINY_SUBURBS.length] ?? TINY_SUBURBS[0]!;
  const day = new Date(Date.UTC(2026, 0, 1) + (i % 365) * 86_400_000);
  const minutes = 6 * 60 + ((i * 7) % 48) * 15;
  const start = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())} ${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  return [
    'Tag',
    String(i % 5000),
    start,
    `${benchStreet(site)}, ${suburb} ${state} ${postcode}`,
    String(30 + (i % 4) * 30),
    SERVICES[i % SERVICES.length] ?? 'Plumbing',
    '',
    '',
    `BENCH-${i}`,
  ];
}

/** Writes an n-row appointment import CSV (header + rows) and returns its size in bytes. */
export function writeAppointmentBenchCsv(file: string, rows: number): number {
  return writeBenchCsv(file, APPOINTMENT_BENCH_COLUMNS, appointmentBenchRow, rows);
}
