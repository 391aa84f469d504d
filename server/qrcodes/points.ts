import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';

const isoTime = z.iso.datetime({ offset: true });

export const qrCodePointsQuerySchema = z.object({
  organization_uuid: z.string().min(1).describe('Organization whose QR codes to place. Required.'),
  changed_from: isoTime
    .optional()
    .describe('Only QR codes created or last changed at or after this time (ISO 8601), e.g. when an import started'),
  changed_to: isoTime
    .optional()
    .describe('Only QR codes created or last changed at or before this time (ISO 8601), e.g. when an import finished'),
});
export type QrCodePointsQuery = z.infer<typeof qrCodePointsQuerySchema>;

/** Column arrays rather than objects: 100,000 points stay a few megabytes and parse at once. */
export const qrCodePointsSchema = z
  .object({
    count: z.number().int().describe('How many QR codes are placed (the length of every array)'),
    not_located: z.number().int().describe('Live QR codes in the selection without coordinates, left out of the arrays'),
    uuid: z.array(z.string()),
    latitude: z.array(z.number()),
    longitude: z.array(z.number()),
    precision: z.array(z.string().nullable()).describe('How each was located: postcode, place, city or postcode_only'),
    state: z.array(z.string().nullable()),
  })
  .meta({ id: 'QrCodePoints' });
export type QrCodePoints = z.infer<typeof qrCodePointsSchema>;

/** Where the organization's live QR codes are, for a map. */
export async function listQrCodePoints(db: Kysely<Database>, query: QrCodePointsQuery): Promise<QrCodePoints> {
  let select = db
    .selectFrom('qrcodes')
    .select(['uuid', 'latitude', 'longitude', 'precision', 'state'])
    .where('organization_uuid', '=', query.organization_uuid)
    .where('deleted_on', 'is', null);
  if (query.changed_from) select = select.where('updated_on', '>=', new Date(query.changed_from).toISOString());
  if (query.changed_to) select = select.where('updated_on', '<=', new Date(query.changed_to).toISOString());
  const rows = await select.execute();
  const points: QrCodePoints = { count: 0, not_located: 0, uuid: [], latitude: [], longitude: [], precision: [], state: [] };
  for (const row of rows) {
    if (row.latitude === null || row.longitude === null) {
      points.not_located++;
      continue;
    }
    points.uuid.push(row.uuid);
    points.latitude.push(row.latitude);
    points.longitude.push(row.longitude);
    points.precision.push(row.precision);
    points.state.push(row.state);
  }
  points.count = points.uuid.length;
  return points;
}
