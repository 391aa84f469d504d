import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { JsonText } from '../http/json-text.ts';
import { resourceRoutes } from '../http/resource-routes.ts';
import { createConfirmation, getConfirmation, pageOfConfirmations, simulateConfirmation } from './confirmations.ts';
import {
  confirmationListQuerySchema,
  confirmationPageSchema,
  confirmationParamsSchema,
  createConfirmationBodySchema,
  serviceConfirmationSchema,
} from './schemas.ts';
import { simulateBodySchema, simulateResponseSchema } from './simulate-schemas.ts';

export function registerConfirmationRoutes(api: Api, ctx: AppContext): void {
  const confirmations = resourceRoutes(api, {
    path: '/api/service-confirmations',
    tag: 'Service confirmations',
    params: confirmationParamsSchema,
    item: serviceConfirmationSchema,
  });

  confirmations.create(
    {
      summary: 'Record a check-in, check-out or delivery at a QR code and send its event to subscribed webhooks.',
      description: 'Fields not given are filled in realistically (demo worker, company, services, position at the QR code).',
      body: createConfirmationBodySchema,
      errors: [404],
    },
    (body) => createConfirmation(ctx, body),
  );
  confirmations.create(
    {
      path: '/api/service-confirmations/simulate',
      summary: 'Make a realistic, fully populated confirmation for an event and send it; answers the event envelope.',
      description: 'Without qr_code_uuid a QR code of the organization is used; an organization without any gets a demo one.',
      body: simulateBodySchema,
      response: simulateResponseSchema,
      errors: [404],
    },
    async (body) => {
      const queued = await simulateConfirmation(ctx, body);
      // JSON.stringify({ event: queued.envelope, deliveries: queued.deliveries }), from the envelope's stored text.
      return new JsonText(`{"event":${queued.envelopeJson},"deliveries":${JSON.stringify(queued.deliveries)}}`);
    },
  );
  confirmations.list(
    { summary: 'List service confirmations, newest first.', query: confirmationListQuerySchema, response: confirmationPageSchema },
    (query) => pageOfConfirmations(ctx, query),
  );
  confirmations.get({ summary: 'Get one service confirmation.' }, (org, uuid) => getConfirmation(ctx, org, uuid));
}
