import { z } from 'zod';
import { cellText } from '../imports/engine/cell-text.ts';
import { locationFromParts, normalisePostcode } from './address.ts';
import { QR_ADDRESS_FIELDS } from './record-fields.ts';
import type { RawRecord } from '../imports/engine/raw-record.ts';

/** Columns of a QR code import: docs/imports.md, the address parts, and optional tag and record fields. */
export const QR_IMPORT_COLUMNS = [
  'location',
  'organization_uuid',
  'type',
  'name',
  'qr_code_name',
  'qr_code_external_reference_id',
  'address_line_1',
  'suburb',
  'state',
  'postcode',
  'country',
  'label',
  'data',
  'tag_name',
  'tag_number',
  'tag_display_name',
] as const;

/** The QR code import's columns in words, for the column matching of the Imports screen. */
export const QR_IMPORT_COLUMN_LABELS: Readonly<Record<(typeof QR_IMPORT_COLUMNS)[number], string>> = {
  location: 'Full address',
  organization_uuid: 'Organization',
  type: 'Type',
  name: 'Name',
  qr_code_name: 'QR code name',
  qr_code_external_reference_id: 'External reference',
  address_line_1: 'Street address',
  suburb: 'Suburb or town',
  state: 'State',
  postcode: 'Postcode',
  country: 'Country',
  label: 'Label',
  data: 'Data',
  tag_name: 'Tag name',
  tag_number: 'Tag number',
  tag_display_name: 'Tag display name',
};

/**
 * The fields echoed as `row` of an excluded entry (docs/api.md): the keys of an excluded row's `row`: the address fields the service echoes, after the name and
 * reference that tell a field admin which row it is (this sandbox adds those two; a client reading
 * only the address keys is unaffected).
 */
export const QR_ECHO_FIELDS = ['name', 'qr_code_external_reference_id', ...QR_ADDRESS_FIELDS] as const;

const text = (max: number) => z.string({ message: 'must be text' }).max(max, `must be at most ${max} characters`).optional();

const TYPE_PATTERN = /^[A-Z][A-Z0-9_]{0,39}$/;

/** Longest text of each field; the schema and the quick check both read it. */
export const QR_MAX_LENGTH = {
  location: 1000,
  type: 40,
  name: 500,
  qr_code_name: 500,
  qr_code_external_reference_id: 200,
  address_line_1: 500,
  suburb: 200,
  state: 100,
  postcode: 20,
  country: 100,
  label: 500,
  data: 10_000,
  tag_name: 200,
  tag_number: 200,
  tag_display_name: 200,
} as const;
type RowField = keyof typeof QR_MAX_LENGTH;
const ROW_FIELDS = Object.keys(QR_MAX_LENGTH) as RowField[];

/** The checks beyond field types and lengths, in order; the schema reports them all, the quick check wants none. */
function rowProblems(row: Partial<Record<RowField, string>>): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!row.location && !row.suburb && !row.postcode)
    problems.push({ path: 'location', message: 'is required (or give suburb, state and postcode)' });
  if (row.type !== undefined && !TYPE_PATTERN.test(row.type.toUpperCase())) {
    problems.push({ path: 'type', message: 'must be a word such as SITE (letters, digits, underscores)' });
  }
  if (Boolean(row.tag_name) !== Boolean(row.tag_number))
    problems.push({ path: row.tag_name ? 'tag_number' : 'tag_name', message: 'tag_name and tag_number go together' });
  return problems;
}

/**
 * The valid row's final shape: type upper case, postcode zeros restored, location from the parts
 * when missing. It finishes the row in place (a fresh object from the schema or the quick check).
 */
function finish<T extends Partial<Record<RowField, string>>>(row: T) {
  const done = row as T & { type: string | undefined; postcode: string | undefined; location: string };
  done.type = row.type?.toUpperCase();
  done.postcode = normalisePostcode(row.postcode, row.country) ?? undefined;
  done.location = row.location ?? locationFromParts(done);
  return done;
}

/** One row of a QR code import (after cellsAsText), from a file row or a JSON element. */
export const qrImportRowSchema = z
  .object(Object.fromEntries(ROW_FIELDS.map((f) => [f, text(QR_MAX_LENGTH[f])])) as Record<RowField, ReturnType<typeof text>>)
  .superRefine((row, ctx) => {
    for (const problem of rowProblems(row)) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  })
  .transform(finish);
export type QrImportRow = z.output<typeof qrImportRowSchema>;

/**
 * What `qrImportRowSchema` gives for `cellsAsText(record)` when it accepts it (every field text
 * within its length, no problem), read straight from the raw cells: a file import checks every
 * row, and zod costs several microseconds a row. Undefined when anything is off; the row then
 * goes through cellsAsText and the schema, which give the messages.
 */
export function quickImportRow(record: RawRecord): QrImportRow | undefined {
  const row: Partial<Record<RowField, string>> = {};
  for (const field of ROW_FIELDS) {
    const value = record[field];
    if (value === undefined) continue;
    if (typeof value === 'object' && value !== null && !(value instanceof Date)) return undefined;
    const text = cellText(value);
    if (text === undefined) continue;
    if (text.length > QR_MAX_LENGTH[field]) return undefined;
    row[field] = text;
  }
  if (rowProblems(row).length > 0) return undefined;
  return finish(row);
}
