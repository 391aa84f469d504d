import { z } from 'zod';
import { MAX_MINUTES } from './minutes.ts';

export const perMinuteQuerySchema = z.object({
  organization_uuid: z.string().min(1).describe('The organization. Required.'),
  minutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_MINUTES)
    .default(60)
    .describe(`How many whole UTC minutes back, the current one included: 1 to ${MAX_MINUTES}. Default 60.`),
});
export type PerMinuteQuery = z.infer<typeof perMinuteQuerySchema>;

const minute = z.string().describe('The minute, ISO 8601 UTC to the minute (YYYY-MM-DDTHH:MM)');
const answerMs = z.number().int().nullable().describe('Mean answer time of its attempts that got an answer, in ms; null when none did');

export const deliveryStatsBucketSchema = z
  .object({
    minute,
    delivered: z.number().int().describe('Attempts answered 2xx (the delivery is delivered)'),
    retried: z.number().int().describe('Failed attempts after which another attempt came or is scheduled'),
    failed: z.number().int().describe('Failed attempts that were the last: the delivery failed'),
    answer_ms: answerMs,
  })
  .meta({ id: 'DeliveryStatsBucket' });

export const deliveryStatsSchema = z
  .object({
    since: z.string().describe('Start of the first minute, ISO 8601 UTC'),
    buckets: z.array(deliveryStatsBucketSchema).describe('One per minute, oldest first, by the time each attempt started'),
    totals: deliveryStatsBucketSchema.omit({ minute: true }).describe('The sums over every bucket; answer_ms over every answered attempt'),
  })
  .meta({ id: 'DeliveryStats' });
export type DeliveryStats = z.infer<typeof deliveryStatsSchema>;

export const eventsPerMinuteSchema = z
  .object({
    since: z.string().describe('Start of the first minute, ISO 8601 UTC'),
    buckets: z
      .array(z.object({ minute, events: z.number().int().describe('Webhook events created in this minute') }))
      .describe('One per minute, oldest first'),
    total: z.number().int().describe('Events over every bucket'),
  })
  .meta({ id: 'EventsPerMinute' });
export type EventsPerMinute = z.infer<typeof eventsPerMinuteSchema>;
