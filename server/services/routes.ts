import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { resourceRoutes } from '../http/resource-routes.ts';
import { registerServiceImportRoutes } from './bulk-routes.ts';
import {
  createServiceBodySchema,
  serviceListQuerySchema,
  servicePageSchema,
  serviceParamsSchema,
  serviceSchema,
  updateServiceBodySchema,
} from './schemas.ts';
import { createService, deleteService, listServices, requireService, updateService } from './services.ts';

/** The catalog's routes and its import's (bulk-routes.ts). */
export function registerServiceRoutes(api: Api, ctx: AppContext): void {
  registerServiceImportRoutes(api, ctx);
  const db = ctx.db.kysely;
  const services = resourceRoutes(api, { path: '/api/services', tag: 'Services', params: serviceParamsSchema, item: serviceSchema });

  services.create(
    {
      summary: "Add a service to the organization's catalog. Appointment imports match `service` / `service_code` against it.",
      body: createServiceBodySchema,
      errors: [409],
    },
    (body) => createService(ctx.db, body),
  );
  services.list(
    { summary: 'List the service catalog of an organization, by name.', query: serviceListQuerySchema, response: servicePageSchema },
    (query) => listServices(db, query),
  );
  services.get({ summary: 'Get one service.' }, (org, uuid) => requireService(db, org, uuid));
  services.update(
    {
      summary: 'Change a service: name, code (null removes it) or categories (replaces them).',
      body: updateServiceBodySchema,
      errors: [409],
    },
    (org, uuid, body) => updateService(ctx.db, org, uuid, body),
  );
  services.remove({ summary: 'Delete a service. Existing appointments keep its name; imports stop matching it.' }, (org, uuid) =>
    deleteService(ctx.db, org, uuid),
  );
}
