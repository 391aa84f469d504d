import { z } from 'zod';
import { searchTerm } from '../text/search-term.ts';
import { typedText } from '../text/typed-text.ts';
import { organizationListQuery, pageSchema } from '../http/pagination.ts';
import { organizationRecordSchema } from '../http/record-schema.ts';

export const qrCodeTagSchema = z.object({
  uuid: z.string(),
  tag_name: z.string(),
  tag_number: z.string(),
  tag_display_name: z.string(),
});

/** The QR code address record (docs/api.md). */
export const qrCodeSchema = organizationRecordSchema('QrCode', {
  type: z.string(),
  name: z.string(),
  label: z.string().nullable(),
  location: z.string(),
  address_line_1: z.string().nullable(),
  suburb: z.string().nullable(),
  state: z.string().nullable(),
  postcode: z.string().nullable(),
  country: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  precision: z.string().nullable().describe('How closely the address was located: postcode, place, city or postcode_only'),
  timezone_name: z.string().nullable(),
  data: z.string().nullable(),
  qr_code_name: z.string().nullable(),
  external_reference_id: z.string().nullable(),
  tags: z.array(qrCodeTagSchema),
});
export type QrCode = z.infer<typeof qrCodeSchema>;

export const qrCodePageSchema = pageSchema(qrCodeSchema);

const text = (max: number) => typedText().trim().max(max, `must be at most ${max} characters`);
const optionalText = (max: number) => text(max).nullable().optional();

export const qrCodeTypeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'must be a word such as SITE (letters, digits, underscores)');

export const tagInputSchema = z.object({
  tag_name: text(200).min(1, 'is required'),
  tag_number: text(200).min(1, 'is required'),
  tag_display_name: text(200).optional(),
});

const editableFields = {
  type: qrCodeTypeSchema.optional(),
  name: text(500).min(1, 'must not be empty').optional(),
  label: optionalText(500),
  address_line_1: optionalText(500),
  suburb: optionalText(200),
  state: optionalText(100),
  postcode: optionalText(20),
  country: optionalText(100),
  data: optionalText(10_000),
  qr_code_name: optionalText(500),
  external_reference_id: optionalText(200),
};

export const createQrCodeSchema = z
  .object({
    organization_uuid: z.string().min(1, 'is required'),
    location: text(1000).min(1, 'is required'),
    ...editableFields,
    tags: z.array(tagInputSchema).max(100).optional(),
  })
  .strict();
export type CreateQrCode = z.infer<typeof createQrCodeSchema>;

export const updateQrCodeSchema = z
  .object({
    location: text(1000).min(1, 'must not be empty').optional(),
    ...editableFields,
    tags: z.array(tagInputSchema).max(100).optional().describe('Replaces the QR code tags when given'),
  })
  .strict();
export type UpdateQrCode = z.infer<typeof updateQrCodeSchema>;

export const qrCodeListQuerySchema = organizationListQuery('QR codes').extend({
  search: searchTerm()
    .optional()
    .describe(
      'Matches name, location, label and external_reference_id, ignoring case. One or two characters look among the 10,000 newest QR codes of the organization only.',
    ),
  type: z.string().trim().toUpperCase().optional().describe('Only this type, e.g. SITE'),
  external_reference_id: typedText().optional().describe('Only the QR code with this external reference'),
});
export type QrCodeListQuery = z.infer<typeof qrCodeListQuerySchema>;

export const qrCodeUuidParamsSchema = z.object({ uuid: z.string().describe('QR code uuid') });
