import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import {
  createServiceBodySchema,
  serviceListQuerySchema,
  servicePageSchema,
  serviceParamsSchema,
  serviceSchema,
  updateServiceBodySchema,
} from './schemas.ts';
import { createService, deleteService, listServices, requireService, updateService } from './services.ts';

export function registerServiceRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  const tag = 'Services';

  api.route(
    {
      method: 'post',
      path: '/api/services',
      tag,
      summary: "Add a service to the organization's catalog. Appointment imports match `service` / `service_code` against it.",
      body: createServiceBodySchema,
      status: 201,
      response: serviceSchema,
      errors: [409],
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      return createService(db, body);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/services',
      tag,
      summary: 'List the service catalog of an organization, by name.',
      query: serviceListQuerySchema,
      response: servicePageSchema,
    },
    async ({ query, principal }) => {
      requireOrganization(principal, query.organization_uuid);
      return listServices(db, query);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/services/uuid/{uuid}',
      tag,
      summary: 'Get one service.',
      params: serviceParamsSchema,
      response: serviceSchema,
    },
    async ({ params, principal }) => requireService(db, principal.organizationUuid, params.uuid),
  );

  api.route(
    {
      method: 'patch',
      path: '/api/services/uuid/{uuid}',
      tag,
      summary: 'Change a service: name, code (null removes it) or categories (replaces them).',
      params: serviceParamsSchema,
      body: updateServiceBodySchema,
      response: serviceSchema,
      errors: [409],
    },
    async ({ params, body, principal }) => updateService(db, principal.organizationUuid, params.uuid, body),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/services/uuid/{uuid}',
      tag,
      summary: 'Delete a service. Existing appointments keep its name; imports stop matching it.',
      params: serviceParamsSchema,
      status: 204,
    },
    async ({ params, principal }) => deleteService(db, principal.organizationUuid, params.uuid),
  );
}
