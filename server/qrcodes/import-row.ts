import { z } from 'zod';
import { cellText, locationFromParts, normalisePostcode } from './address.ts';
import { qrCodeTypeSchema } from './schemas.ts';

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

const cell = (max: number) =>
  z.preprocess(
    (value) => (typeof value === 'object' && value !== null && !(value instanceof Date) ? value : cellText(value)),
    z.string({ message: 'must be text' }).max(max, `must be at most ${max} characters`).optional(),
  );

/** One row of a QR code import, from a file row or a JSON element. */
export const qrImportRowSchema = z
  .object({
    location: cell(1000),
    type: z.preprocess(cellText, qrCodeTypeSchema.optional()),
    name: cell(500),
    qr_code_name: cell(500),
    qr_code_external_reference_id: cell(200),
    address_line_1: cell(500),
    suburb: cell(200),
    state: cell(100),
    postcode: cell(20),
    country: cell(100),
    label: cell(500),
    data: cell(10_000),
    tag_name: cell(200),
    tag_number: cell(200),
    tag_display_name: cell(200),
  })
  .superRefine((row, ctx) => {
    if (!row.location && !row.suburb && !row.postcode) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'is required (or give suburb, state and postcode)' });
    }
    if (Boolean(row.tag_name) !== Boolean(row.tag_number)) {
      ctx.addIssue({ code: 'custom', path: [row.tag_name ? 'tag_number' : 'tag_name'], message: 'tag_name and tag_number go together' });
    }
  })
  .transform((row) => {
    const postcode = normalisePostcode(row.postcode, row.country) ?? undefined;
    return { ...row, postcode, location: row.location ?? locationFromParts({ ...row, postcode }) };
  });
export type QrImportRow = z.output<typeof qrImportRowSchema>;
