import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { resourceRoutes } from '../http/resource-routes.ts';
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
    deleteQrCode(db, org, uuid),
  );
}
