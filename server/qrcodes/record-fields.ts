import type { QrCodeTable } from '../db/schema.ts';

/** The columns of a QR code that an import or an appointment's new QR code fills from its row (besides identity and timestamps). */
export const QR_CODE_RECORD_FIELDS = [
  'type',
  'name',
  'label',
  'location',
  'address_line_1',
  'suburb',
  'state',
  'postcode',
  'country',
  'latitude',
  'longitude',
  'precision',
  'timezone_name',
  'data',
  'qr_code_name',
  'external_reference_id',
] as const satisfies readonly (keyof QrCodeTable)[];

export type QrCodeRecordField = (typeof QR_CODE_RECORD_FIELDS)[number];
