import type { ServerConfig } from '../context.ts';
import type { RetryScheduleName } from './retry-schedule.ts';

/** Spec says nothing; DESIGN.md fixes 15 s per attempt. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;

export function defaultRetrySchedule(config: ServerConfig): RetryScheduleName {
  return config.webhookRetrySchedule ?? 'standard';
}

export function deliveryTimeoutMs(config: ServerConfig): number {
  return config.webhookTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
}
