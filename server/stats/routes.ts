import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { organizationGet } from '../http/resource-routes.ts';
import { webhookParamsSchema } from '../webhooks/schemas.ts';
import { deliveryStats } from './delivery-stats.ts';
import { eventsPerMinute } from './events-per-minute.ts';
import { deliveryStatsSchema, eventsPerMinuteSchema, perMinuteQuerySchema } from './schemas.ts';

const tag = 'Webhooks';

/** The per-minute counts the GUI's charts draw: a webhook's attempts, an organization's events. */
export function registerStatsRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  organizationGet(
    api,
    {
      path: '/api/webhooks/uuid/{uuid}/delivery-stats',
      tag,
      summary:
        "A webhook's attempts per minute over the last hour (or ?minutes=): delivered, retried and failed, and the mean answer time.",
      params: webhookParamsSchema,
      query: perMinuteQuerySchema,
      response: deliveryStatsSchema,
      errors: [404],
    },
    (query, { params }) => deliveryStats(db, params.uuid, query),
  );
  organizationGet(
    api,
    {
      path: '/api/activity/per-minute',
      tag,
      summary: "An organization's webhook events per minute over the last hour (or ?minutes=).",
      query: perMinuteQuerySchema,
      response: eventsPerMinuteSchema,
    },
    (query) => eventsPerMinute(db, query),
  );
}
