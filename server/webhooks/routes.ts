import { requireRole } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { resourceRoutes } from '../http/resource-routes.ts';
import { pageOfDeliveries, redeliver } from './deliveries.ts';
import {
  deliveryListQuerySchema,
  deliveryPageSchema,
  deliveryParamsSchema,
  deliverySchema,
  registerWebhookBodySchema,
  updateWebhookBodySchema,
  webhookGetQuerySchema,
  webhookListQuerySchema,
  webhookPageSchema,
  webhookParamsSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from './schemas.ts';
import { deleteWebhook, getWebhook, pageOfWebhooks, registerWebhook, updateWebhook } from './webhooks.ts';

const tag = 'Webhooks';

export function registerWebhookRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  const webhooks = resourceRoutes(api, { path: '/api/webhooks', tag, params: webhookParamsSchema, item: webhookSchema });

  webhooks.create(
    {
      path: '/api/webhooks/register',
      summary: 'Register a webhook. The answer includes the secret the service generated (or, in QR Sandbox only, the one given).',
      body: registerWebhookBodySchema,
      response: webhookWithSecretSchema,
    },
    (body) => registerWebhook(db, body),
  );
  webhooks.list(
    {
      summary: 'List the webhooks of an organization, newest first (never their secrets).',
      query: webhookListQuerySchema,
      response: webhookPageSchema,
    },
    (query) => pageOfWebhooks(db, query),
  );
  webhooks.get(
    {
      summary: 'Get one webhook; ?include_secret=true adds its secret (editor role).',
      query: webhookGetQuerySchema,
      response: webhookWithSecretSchema.partial({ secret: true }),
    },
    (org, uuid, { query, principal }) => {
      const includeSecret = query.include_secret === 'true';
      if (includeSecret) requireRole(principal, 'editor');
      return getWebhook(db, org, uuid, includeSecret);
    },
  );
  webhooks.update(
    {
      summary: 'Change url, events or is_active (QR Sandbox also: retry_schedule, secret). Deactivating stops pending retries.',
      body: updateWebhookBodySchema,
    },
    (org, uuid, body) => updateWebhook(db, org, uuid, body),
  );
  webhooks.remove({ summary: 'Delete a webhook; its pending deliveries stop.' }, (org, uuid) => deleteWebhook(db, org, uuid));
  webhooks.list(
    {
      path: '/api/webhooks/uuid/{uuid}/deliveries',
      summary: 'Deliveries of a webhook, newest first, each with every attempt (time, status, duration, response excerpt, error).',
      params: webhookParamsSchema,
      query: deliveryListQuerySchema,
      response: deliveryPageSchema,
    },
    (query, params) => pageOfDeliveries(db, params.uuid, query),
  );

  api.route(
    {
      method: 'post',
      path: '/api/webhooks/uuid/{uuid}/deliveries/{delivery_id}/redeliver',
      tag,
      summary: 'Send a delivery again now (same delivery id, next attempt number, fresh retry schedule).',
      params: deliveryParamsSchema,
      status: 202,
      response: deliverySchema,
      errors: [409],
    },
    async ({ params, principal }) => redeliver(ctx, principal.organizationUuid, params.uuid, params.delivery_id),
  );
}
