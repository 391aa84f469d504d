import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { organizationGet } from '../http/resource-routes.ts';
import {
  BULK_REDELIVER_CAP,
  bulkRedeliverBodySchema,
  bulkRedeliverResultSchema,
  organizationDeliveryQuerySchema,
} from './bulk-delivery-schemas.ts';
import { pageOfOrganizationDeliveries, redeliverFailed } from './organization-deliveries.ts';
import { deliveryPageSchema } from './schemas.ts';

const tag = 'Webhooks';

/** The deliveries of all an organization's webhooks: the list with filters, and the bulk redeliver of failed ones. */
export function registerBulkDeliveryRoutes(api: Api, ctx: AppContext): void {
  organizationGet(
    api,
    {
      path: '/api/webhooks/deliveries',
      tag,
      summary: "Deliveries of all the organization's webhooks, newest first, each with every attempt; filter by status, since and webhook.",
      query: organizationDeliveryQuerySchema,
      response: deliveryPageSchema,
    },
    (query) => pageOfOrganizationDeliveries(ctx.db.kysely, query),
  );
  api.route(
    {
      method: 'post',
      path: '/api/webhooks/deliveries/redeliver',
      tag,
      summary: 'Send failed deliveries again, in bulk (editor).',
      description:
        `Queues the organization's failed deliveries again, oldest first, at most ${BULK_REDELIVER_CAP} a call; \`remaining\` tells how many more ` +
        'matched (call again for them: the ones queued are pending now and no longer match). Each is sent as the single redeliver sends it: ' +
        'the same delivery id, the next attempt number, a fresh retry schedule. Deliveries of inactive or deleted webhooks are skipped and counted ' +
        'in `skipped`. Narrow with `since` (created at or after) and `webhook_uuid`.',
      body: bulkRedeliverBodySchema,
      status: 202,
      response: bulkRedeliverResultSchema,
    },
    async ({ body, principal }) => {
      requireOrganization(principal, body.organization_uuid);
      return redeliverFailed(ctx, body);
    },
  );
}
