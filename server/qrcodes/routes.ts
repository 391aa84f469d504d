import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { organizationGet, resourceRoutes } from '../http/resource-routes.ts';
import { listQrCodePoints, qrCodePointsQuerySchema, qrCodePointsSchema } from './points.ts';
import { createQrCode, deleteQrCode, getQrCode, listQrCodes, updateQrCode } from './qrcodes.ts';
import {
  createQrCodeSchema,
  qrCodeListQuerySchema,
  qrCodePageSchema,
  qrCodeSchema,
  qrCodeUuidParamsSchema,
  updateQrCodeSchema,
} from './schemas.ts';

export function registerQrCodeRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  const qrCodes = resourceRoutes(api, { path: '/api/qrcodes', tag: 'QR codes', params: qrCodeUuidParamsSchema, item: qrCodeSchema });

  qrCodes.list(
    {
      summary: 'List QR code addresses of an organization, newest first, with search and filters.',
      query: qrCodeListQuerySchema,
      response: qrCodePageSchema,
    },
    (query) => listQrCodes(db, query, (sql, parameters) => ctx.counts.count(sql, parameters)),
  );
  organizationGet(
    api,
    {
      path: '/api/qrcodes/points',
      tag: 'QR codes',
      summary: "Where the organization's QR codes are, for a map: uuid, latitude, longitude, precision and state as arrays.",
      description:
        "The sandbox's own: the GUI's map reads 100,000 QR codes in one answer. Optionally only those created or last changed between two times (an import's start and finish).",
      query: qrCodePointsQuerySchema,
      response: qrCodePointsSchema,
    },
    (query) => listQrCodePoints(db, query),
  );
  qrCodes.create(
    {
      summary: 'Create a QR code address. The address is located (latitude, longitude, time zone); one that cannot be is a 400.',
      body: createQrCodeSchema,
      errors: [409],
    },
    async (body) => createQrCode(db, await ctx.imports.geocoder(), body),
  );
  qrCodes.get({ summary: 'Get one QR code address.' }, (org, uuid) => getQrCode(db, org, uuid));
  qrCodes.update(
    {
      summary: 'Update a QR code address. Changing any address field locates it again.',
      body: updateQrCodeSchema,
      errors: [409],
    },
    async (org, uuid, body) => updateQrCode(db, await ctx.imports.geocoder(), org, uuid, body),
  );
  qrCodes.remove({ summary: 'Delete a QR code address (soft delete: a later import with the same identity restores it).' }, (org, uuid) =>
    deleteQrCode(ctx, org, uuid),
  );
}
