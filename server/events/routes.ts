import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { notFound } from '../http/errors.ts';
import { organizationGet } from '../http/resource-routes.ts';
import { toPage } from '../http/pagination.ts';
import {
  activityQuerySchema,
  activitySchema,
  deliveryLookupParamsSchema,
  deliveryLookupQuerySchema,
  deliveryLookupSchema,
  eventListQuerySchema,
  eventPageSchema,
} from './schemas.ts';
import { countActivity, listEvents, lookUpDelivery } from './store.ts';

const tag = 'Webhooks';

/** Events across all webhooks, the running counters of the live screen, and a delivery by its id. */
export function registerEventRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  organizationGet(
    api,
    {
      path: '/api/webhook-events',
      tag,
      summary:
        'Events of an organization across all webhooks, newest first: type, time, QR code, service, address, and each delivery with its status.',
      query: eventListQuerySchema,
      response: eventPageSchema,
    },
    async (query) => toPage(await listEvents(db, query), query),
  );
  organizationGet(
    api,
    {
      path: '/api/activity',
      tag,
      summary: 'Running counters of an organization (events, deliveries by status, imports) and whether the server runs in demo mode.',
      query: activityQuerySchema,
      response: activitySchema,
    },
    async (query) => {
      const counts = await countActivity(db, query.organization_uuid);
      return { ...counts, demo: ctx.demo ? { interval_ms: ctx.demo.intervalMs } : null };
    },
  );
  organizationGet(
    api,
    {
      path: '/api/webhook-deliveries/{delivery_id}',
      tag,
      summary:
        'Which webhook and event a delivery id belongs to (the delivery_id of the delivery log, an inbox message or an X-Sandbox-Delivery-Id).',
      params: deliveryLookupParamsSchema,
      query: deliveryLookupQuerySchema,
      response: deliveryLookupSchema,
      errors: [404],
    },
    async (query, { params }) => {
      const found = await lookUpDelivery(db, query.organization_uuid, params.delivery_id);
      if (!found) throw notFound(`Delivery ${params.delivery_id}`);
      return found;
    },
  );
}
