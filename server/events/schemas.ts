import { z } from 'zod';
import { organizationListQuery, pageSchema } from '../http/pagination.ts';
import { deliveryStatuses } from '../webhooks/schemas.ts';
import { eventTypes } from '../webhook-events/registry.ts';

export const eventListQuerySchema = organizationListQuery('events').extend({
  type: z.enum(eventTypes).optional().describe('Only events of this type'),
  status: z.enum(deliveryStatuses).optional().describe('Only events with a delivery in this status (of the webhook given, if one is)'),
  webhook_uuid: z.string().min(1).optional().describe('Only events delivered to this webhook'),
});
export type EventListQuery = z.infer<typeof eventListQuerySchema>;

export const eventDeliverySchema = z
  .object({
    delivery_id: z.string(),
    webhook_uuid: z.string(),
    webhook_url: z.string().describe("The webhook's URL (a deleted webhook's last URL)"),
    status: z.enum(deliveryStatuses),
    attempt_count: z.number().int(),
    last_status_code: z.number().int().nullable().describe("The last attempt's HTTP status; null before an attempt or when no answer came"),
  })
  .meta({ id: 'EventDelivery' });

export const eventSummarySchema = z
  .object({
    id: z.string().describe('The event id (the envelope id, the same in every delivery of the event)'),
    type: z.enum(eventTypes),
    created_at: z.string().describe('ISO 8601 UTC'),
    qr_code_uuid: z.string().nullable(),
    service: z.string().nullable().describe("The confirmation's service name; null for an event that is not a confirmation"),
    location: z.string().nullable().describe("The QR code's address"),
    worker: z.string().nullable().describe('First and last name of the worker who confirmed; null for an event that is not a confirmation'),
    deliveries: z.array(eventDeliverySchema).describe('One per webhook the event went to, with its status'),
  })
  .meta({ id: 'EventSummary' });
export type EventSummary = z.infer<typeof eventSummarySchema>;
export const eventPageSchema = pageSchema(eventSummarySchema);

export const activityQuerySchema = z.object({
  organization_uuid: z.string().min(1).describe('Organization whose activity to count. Required.'),
});

export const activitySchema = z
  .object({
    events: z.number().int().describe('Webhook events of the organization'),
    deliveries: z.object({
      delivered: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
    }),
    imports: z.number().int().describe('Background tasks (imports) of the organization'),
    demo: z
      .object({ interval_ms: z.number().int().describe('Time between simulated events') })
      .nullable()
      .describe('Set while this server runs in demo mode (serve --demo)'),
  })
  .meta({ id: 'Activity' });

export const deliveryLookupParamsSchema = z.object({ delivery_id: z.string().describe("The sandbox's delivery id") });
export const deliveryLookupQuerySchema = z.object({ organization_uuid: z.string().min(1).describe('The organization. Required.') });
export const deliveryLookupSchema = z
  .object({
    delivery_id: z.string(),
    webhook_uuid: z.string(),
    event_id: z.string(),
    status: z.enum(deliveryStatuses),
    attempt_count: z.number().int(),
  })
  .meta({ id: 'DeliveryLookup' });
