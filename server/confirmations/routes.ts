import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { createConfirmation, getConfirmation, pageOfConfirmations, simulateConfirmation } from './confirmations.ts';
import {
  confirmationListQuerySchema,
  confirmationPageSchema,
  confirmationParamsSchema,
  createConfirmationBodySchema,
  serviceConfirmationSchema,
  simulateBodySchema,
  simulateResponseSchema,
} from './schemas.ts';

const tag = 'Service confirmations';

export function registerConfirmationRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'post',
      path: '/api/service-confirmations',
      tag,
      summary: 'Record a check-in, check-out or delivery at a QR code and send its event to subscribed webhooks.',
      description: 'Fields not given are filled in realistically (demo worker, company, services, position at the QR code).',
      body: createConfirmationBodySchema,
      status: 201,
      response: serviceConfirmationSchema,
      errors: [404],
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      return createConfirmation(ctx, body);
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/service-confirmations/simulate',
      tag,
      summary: 'Make a realistic, fully populated confirmation for an event and send it; answers the event envelope.',
      description: 'Without qr_code_uuid a QR code of the organization is used; an organization without any gets a demo one.',
      body: simulateBodySchema,
      status: 201,
      response: simulateResponseSchema,
      errors: [404],
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      const queued = await simulateConfirmation(ctx, body);
      return { event: queued.envelope, deliveries: queued.deliveries };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/service-confirmations',
      tag,
      summary: 'List service confirmations, newest first.',
      query: confirmationListQuerySchema,
      response: confirmationPageSchema,
    },
    async ({ query, principal }) => {
      requireOrganization(principal, query.organization_uuid);
      return pageOfConfirmations(ctx, query);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/service-confirmations/uuid/{uuid}',
      tag,
      summary: 'Get one service confirmation.',
      params: confirmationParamsSchema,
      response: serviceConfirmationSchema,
    },
    async ({ params, principal }) => getConfirmation(ctx, principal.organizationUuid, params.uuid),
  );
}
