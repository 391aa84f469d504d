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

/** Up to 10% extra so that many failed deliveries do not all come back in the same instant. */
export const JITTER_FRACTION = 0.1;

/**
 * The wait before the next attempt after `failedAttempts` failures since the delivery was queued,
 * or null when the schedule is used up and the delivery has failed.
 */
export function nextRetryDelay(schedule: RetryScheduleName, failedAttempts: number, random: () => number = Math.random): number | null {
  const delay = retryDelaysMs[schedule][failedAttempts - 1];
  if (delay === undefined) return null;
  return Math.round(delay * (1 + JITTER_FRACTION * random()));
}

export function maxAttempts(schedule: RetryScheduleName): number {
  return retryDelaysMs[schedule].length + 1;
}
