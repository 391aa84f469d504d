import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
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
  const tag = 'QR codes';
  api.route(
    {
      method: 'get',
      path: '/api/qrcodes',
      tag,
      summary: 'List QR code addresses of an organization, newest first, with search and filters.',
      query: qrCodeListQuerySchema,
      response: qrCodePageSchema,
    },
    async ({ query, principal }) => {
      requireOrganization(principal, query.organization_uuid);
      return listQrCodes(ctx.db.kysely, query);
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/qrcodes',
      tag,
      summary: 'Create a QR code address. The address is located (latitude, longitude, time zone); one that cannot be is a 400.',
      body: createQrCodeSchema,
      status: 201,
      response: qrCodeSchema,
      errors: [409],
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      return createQrCode(ctx.db.kysely, await ctx.imports.geocoder(), body);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/qrcodes/uuid/{uuid}',
      tag,
      summary: 'Get one QR code address.',
      params: qrCodeUuidParamsSchema,
      response: qrCodeSchema,
    },
    async ({ params, principal }) => getQrCode(ctx.db.kysely, principal.organizationUuid, params.uuid),
  );

  api.route(
    {
      method: 'patch',
      path: '/api/qrcodes/uuid/{uuid}',
      tag,
      summary: 'Update a QR code address. Changing any address field locates it again.',
      params: qrCodeUuidParamsSchema,
      body: updateQrCodeSchema,
      response: qrCodeSchema,
      errors: [409],
    },
    async ({ params, body, principal }) =>
      updateQrCode(ctx.db.kysely, await ctx.imports.geocoder(), principal.organizationUuid, params.uuid, body),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/qrcodes/uuid/{uuid}',
      tag,
      summary: 'Delete a QR code address (soft delete: a later import with the same identity restores it).',
      params: qrCodeUuidParamsSchema,
      status: 204,
    },
    async ({ params, principal }) => {
      await deleteQrCode(ctx.db.kysely, principal.organizationUuid, params.uuid);
    },
  );
}
