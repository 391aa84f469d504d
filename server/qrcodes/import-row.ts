import { z } from 'zod';
import { cellText, locationFromParts, normalisePostcode } from './address.ts';
import type { RawRecord } from '../imports/kind.ts';

/** Columns of a QR code import: spec 2.5, the address parts, and optional tag and record fields. */
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

/** The fields echoed as `row` of an excluded entry (spec 2.1). */
export const QR_ECHO_FIELDS = ['location', 'address_line_1', 'suburb', 'state', 'postcode', 'country'] as const;

const text = (max: number) => z.string({ message: 'must be text' }).max(max, `must be at most ${max} characters`).optional();

/**
 * Cells as trimmed text (numbers keep their digits, blanks become missing), in one pass before
 * the schema: the schema then only checks plain strings, which zod does fast.
 */
export function cellsAsText(record: RawRecord): RawRecord {
  const out: RawRecord = {};
  for (const key in record) {
    const value = record[key];
    out[key] = typeof value === 'object' && value !== null && !(value instanceof Date) ? value : cellText(value);
  }
  return out;
}

const TYPE_PATTERN = /^[A-Z][A-Z0-9_]{0,39}$/;

/** One row of a QR code import (after cellsAsText), from a file row or a JSON element. */
export const qrImportRowSchema = z
  .object({
    location: text(1000),
    type: text(40),
    name: text(500),
    qr_code_name: text(500),
    qr_code_external_reference_id: text(200),
    address_line_1: text(500),
    suburb: text(200),
    state: text(100),
    postcode: text(20),
    country: text(100),
    label: text(500),
    data: text(10_000),
    tag_name: text(200),
    tag_number: text(200),
    tag_display_name: text(200),
  })
  .superRefine((row, ctx) => {
    if (!row.location && !row.suburb && !row.postcode) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'is required (or give suburb, state and postcode)' });
    }
    if (row.type !== undefined && !TYPE_PATTERN.test(row.type.toUpperCase())) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'must be a word such as SITE (letters, digits, underscores)' });
    }
    if (Boolean(row.tag_name) !== Boolean(row.tag_number)) {
      ctx.addIssue({ code: 'custom', path: [row.tag_name ? 'tag_number' : 'tag_name'], message: 'tag_name and tag_number go together' });
    }
  })
  .transform((row) => {
    const postcode = normalisePostcode(row.postcode, row.country) ?? undefined;
    return {
      ...row,
      type: row.type?.toUpperCase(),
      postcode,
      location: row.location ?? locationFromParts({ ...row, postcode }),
    };
  });
export type QrImportRow = z.output<typeof qrImportRowSchema>;
