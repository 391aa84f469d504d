import { z } from 'zod';

export const retryScheduleNames = ['standard', 'fast'] as const;
export const retryScheduleNameSchema = z.enum(retryScheduleNames);
export type RetryScheduleName = z.infer<typeof retryScheduleNameSchema>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits before attempt 2, 3, ...; the first attempt goes at once (docs/webhooks.md, "Delivery, retries and the deliveries log"). */
export const retryDelaysMs: Record<RetryScheduleName, readonly number[]> = {
  standard: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  fast: [1 * SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 30 * SECOND],
};

export const MAX_RETRY_STEPS = 20;
export const MAX_RETRY_DELAY_MS = 24 * HOUR;

/** A webhook's own schedule: a preset's name, or its own waits before attempt 2, 3, ... */
export const webhookRetryScheduleSchema = z
  .union([
    retryScheduleNameSchema,
    z
      .array(z.number().int().min(0).max(MAX_RETRY_DELAY_MS).describe(`Milliseconds, 0 to ${MAX_RETRY_DELAY_MS} (24 h)`))
      .min(1)
      .max(MAX_RETRY_STEPS),
  ])
  .meta({
    id: 'WebhookRetrySchedule',
    description: `standard or fast (the presets of the organization setting), or the waits in ms before attempt 2, 3, ... (1 to ${MAX_RETRY_STEPS} of them, each at most 24 h); a failed delivery is given up after the last`,
  });

/** A preset's name or a list of waits. */
export type RetrySchedule = z.infer<typeof webhookRetryScheduleSchema>;

/** Up to 10% extra so that many failed deliveries do not all come back in the same instant. */
export const JITTER_FRACTION = 0.1;

function delaysOf(schedule: RetrySchedule | RetryScheduleName): readonly number[] {
  return typeof schedule === 'string' ? retryDelaysMs[schedule] : schedule;
}

/**
 * The wait before the next attempt after `failedAttempts` failures since the delivery was queued,
 * or null when the schedule is used up and the delivery has failed.
 */
export function nextRetryDelay(schedule: RetrySchedule, failedAttempts: number, random: () => number = Math.random): number | null {
  const delay = delaysOf(schedule)[failedAttempts - 1];
  if (delay === undefined) return null;
  return Math.round(delay * (1 + JITTER_FRACTION * random()));
}

export function maxAttempts(schedule: RetrySchedule): number {
  return delaysOf(schedule).length + 1;
}

export function describeSchedule(schedule: RetrySchedule): string {
  return typeof schedule === 'string' ? `the ${schedule} schedule` : "the webhook's own schedule";
}

/** A webhook's stored schedule (JSON), or null when it follows the organization's. */
export function parseWebhookSchedule(stored: string | null | undefined): RetrySchedule | null {
  if (stored == null) return null;
  try {
    const parsed = webhookRetryScheduleSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
