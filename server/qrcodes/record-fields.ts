import type { QrCodeTable } from '../db/schema.ts';

/** Where a QR code is, as its import file and its record both name it. */
export const QR_ADDRESS_FIELDS = ['location', 'address_line_1', 'suburb', 'state', 'postcode', 'country'] as const;

/** The columns of a QR code that an import or an appointment's new QR code fills from its row (besides identity and timestamps). */
export const QR_CODE_RECORD_FIELDS = [
  'type',
  'name',
  'label',
  ...QR_ADDRESS_FIELDS,
  'latitude',
  'longitude',
  'precision',
  'timezone_name',
  'data',
  'qr_code_name',
  'external_reference_id',
] as const satisfies readonly (keyof QrCodeTable)[];

export type QrCodeRecordField = (typeof QR_CODE_RECORD_FIELDS)[number];
