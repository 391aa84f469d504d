import { requireOrganization, requireRole } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
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

  api.route(
    {
      method: 'post',
      path: '/api/webhooks/register',
      tag,
      summary: 'Register a webhook (spec 4.10). The answer includes the secret the service generated.',
      body: registerWebhookBodySchema,
      status: 201,
      response: webhookWithSecretSchema,
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      return registerWebhook(db, body);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/webhooks',
      tag,
      summary: 'List the webhooks of an organization, newest first (never their secrets).',
      query: webhookListQuerySchema,
      response: webhookPageSchema,
    },
    async ({ query, principal }) => {
      requireOrganization(principal, query.organization_uuid);
      return pageOfWebhooks(db, query);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/webhooks/uuid/{uuid}',
      tag,
      summary: 'Get one webhook; ?include_secret=true adds its secret (editor role).',
      params: webhookParamsSchema,
      query: webhookGetQuerySchema,
      response: webhookWithSecretSchema.partial({ secret: true }),
    },
    async ({ params, query, principal }) => {
      const includeSecret = query.include_secret === 'true';
      if (includeSecret) requireRole(principal, 'editor');
      return getWebhook(db, principal.organizationUuid, params.uuid, includeSecret);
    },
  );

  api.route(
    {
      method: 'patch',
      path: '/api/webhooks/uuid/{uuid}',
      tag,
      summary: 'Change url, events or is_active. Deactivating stops pending retries.',
      params: webhookParamsSchema,
      body: updateWebhookBodySchema,
      response: webhookSchema,
    },
    async ({ params, body, principal }) => updateWebhook(db, principal.organizationUuid, params.uuid, body),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/webhooks/uuid/{uuid}',
      tag,
      summary: 'Delete a webhook; its pending deliveries stop.',
      params: webhookParamsSchema,
      status: 204,
    },
    async ({ params, principal }) => {
      await deleteWebhook(db, principal.organizationUuid, params.uuid);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/webhooks/uuid/{uuid}/deliveries',
      tag,
      summary: 'Deliveries of a webhook, newest first, each with every attempt (time, status, duration, response excerpt, error).',
      params: webhookParamsSchema,
      query: deliveryListQuerySchema,
      response: deliveryPageSchema,
    },
    async ({ params, query, principal }) => {
      requireOrganization(principal, query.organization_uuid);
      return pageOfDeliveries(db, params.uuid, query);
    },
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
