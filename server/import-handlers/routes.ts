import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { resourceRoutes } from '../http/resource-routes.ts';
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
  const handlers = resourceRoutes(api, {
    path: '/api/import-handlers',
    tag: 'Import handlers',
    params: importHandlerParamsSchema,
    item: importHandlerSchema,
  });

  handlers.create(
    {
      summary: "Save a column mapping for an organization's own file layout; imports select it with org_identifier=<slug>.",
      description:
        'Columns the mapping does not name are still read when their title is an appointment field name. ' +
        'The slug `default` is built in and reads the spec column names.',
      body: createImportHandlerBodySchema,
      errors: [409],
    },
    (body) => createImportHandler(db, body),
  );
  handlers.list(
    {
      summary: "List an organization's saved import handlers (the built-in `default` is not listed).",
      query: importHandlerListQuerySchema,
      response: importHandlerPageSchema,
    },
    (query) => listImportHandlers(db, query),
  );
  handlers.get({ summary: 'Get one import handler.' }, (org, uuid) => requireImportHandler(db, org, uuid));
  handlers.update(
    {
      summary: 'Change an import handler: name, slug or mapping (replaces it).',
      body: updateImportHandlerBodySchema,
      errors: [409],
    },
    (org, uuid, body) => updateImportHandler(db, org, uuid, body),
  );
  handlers.remove({ summary: 'Delete an import handler.' }, (org, uuid) => removeImportHandler(db, org, uuid));
}
