import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { createImportHandler, listImportHandlers, removeImportHandler, requireImportHandler, updateImportHandler } from './handlers.ts';
import {
  createImportHandlerBodySchema,
  importHandlerListQuerySchema,
  importHandlerPageSchema,
  importHandlerParamsSchema,
  importHandlerSchema,
  updateImportHandlerBodySchema,
} from './schemas.ts';

export function registerImportHandlerRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  const tag = 'Import handlers';

  api.route(
    {
      method: 'post',
      path: '/api/import-handlers',
      tag,
      summary: "Save a column mapping for an organization's own file layout; imports select it with org_identifier=<slug>.",
      description:
        'Columns the mapping does not name are still read when their title is an appointment field name (spec 2.3). ' +
        'The slug `default` is built in and reads the spec column names.',
      body: createImportHandlerBodySchema,
      status: 201,
      response: importHandlerSchema,
      errors: [409],
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      return createImportHandler(db, body);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/import-handlers',
      tag,
      summary: "List an organization's saved import handlers (the built-in `default` is not listed).",
      query: importHandlerListQuerySchema,
      response: importHandlerPageSchema,
    },
    async ({ query, principal }) => {
      requireOrganization(principal, query.organization_uuid);
      return listImportHandlers(db, query);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/import-handlers/uuid/{uuid}',
      tag,
      summary: 'Get one import handler.',
      params: importHandlerParamsSchema,
      response: importHandlerSchema,
    },
    async ({ params, principal }) => requireImportHandler(db, principal.organizationUuid, params.uuid),
  );

  api.route(
    {
      method: 'patch',
      path: '/api/import-handlers/uuid/{uuid}',
      tag,
      summary: 'Change an import handler: name, slug or mapping (replaces it).',
      params: importHandlerParamsSchema,
      body: updateImportHandlerBodySchema,
      response: importHandlerSchema,
      errors: [409],
    },
    async ({ params, body, principal }) => updateImportHandler(db, principal.organizationUuid, params.uuid, body),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/import-handlers/uuid/{uuid}',
      tag,
      summary: 'Delete an import handler.',
      params: importHandlerParamsSchema,
      status: 204,
    },
    async ({ params, principal }) => removeImportHandler(db, principal.organizationUuid, params.uuid),
  );
}
