import { z } from 'zod';
import { pageQuerySchema } from '../http/pagination.ts';
import { deliveryStatuses } from './schemas.ts';

/** The most failed deliveries one bulk redeliver queues again; `remaining` tells how many more match. */
export const BULK_REDELIVER_CAP = 1000;

const sinceField = z
  .string()
  .trim()
  .refine((text) => !Number.isNaN(Date.parse(text)), { message: 'Give an ISO 8601 time, e.g. 2026-11-28T09:00:00Z.' })
  .transform((text) => new Date(text).toISOString())
  .describe('Only deliveries created at or after this time (ISO 8601, e.g. 2026-11-28T09:00:00Z)');
const webhookField = z.string().min(1).describe("Only this webhook's deliveries");

export const organizationDeliveryQuerySchema = pageQuerySchema.extend({
  organization_uuid: z.string().min(1).describe('Organization whose deliveries to list (all its webhooks). Required.'),
  status: z.enum(deliveryStatuses).optional().describe('Only deliveries in this state'),
  since: sinceField.optional(),
  webhook_uuid: webhookField.optional(),
});
export type OrganizationDeliveryQuery = z.infer<typeof organizationDeliveryQuerySchema>;

export const bulkRedeliverBodySchema = z
  .strictObject({
    organization_uuid: z.string().min(1),
    failed: z.literal(true).describe('Required: only failed deliveries are sent again in bulk'),
    since: sinceField.optional(),
    webhook_uuid: webhookField.optional(),
  })
  .meta({ id: 'BulkRedeliverRequest' });
export type BulkRedeliverBody = z.infer<typeof bulkRedeliverBodySchema>;

export const bulkRedeliverResultSchema = z
  .object({
    redelivered: z.number().int().describe('Failed deliveries queued again now (oldest first), each as the single redeliver does'),
    delivery_ids: z.array(z.string()).describe('Their delivery ids'),
    skipped: z.number().int().describe('Failed deliveries left alone: their webhook is inactive or deleted, or an attempt was in flight'),
    remaining: z.number().int().describe(`Failed deliveries that matched beyond the cap of ${BULK_REDELIVER_CAP}: call again for them`),
    cap: z.number().int().describe('The most deliveries one call queues again'),
  })
  .meta({ id: 'BulkRedeliverResult' });
export type BulkRedeliverResult = z.infer<typeof bulkRedeliverResultSchema>;
