import type { BackgroundTask } from '../tasks/schemas.ts';
import { ServiceError, type ServiceClient } from './service-client.ts';

export interface WatchOptions {
  /** Poll interval while the task moves; grows to maxIntervalMs while it does not (docs/api.md: 2 to 5 s). */
  minIntervalMs?: number;
  maxIntervalMs?: number;
  /** Backoff after a failed poll doubles from maxIntervalMs up to this. */
  maxBackoffMs?: number;
  /** Consecutive failed polls before giving up. */
  maxConsecutiveErrors?: number;
  onUpdate?: (task: BackgroundTask) => void;
  onRetry?: (error: ServiceError, delayMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

const FINAL = new Set(['COMPLETED', 'FAILED']);
/** Answers that polling again will not change. */
const GIVE_UP_STATUSES = new Set([400, 401, 403, 404]);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls a background task until it is COMPLETED or FAILED and returns it. */
export async function watchTask(client: ServiceClient, uuid: string, options: WatchOptions = {}): Promise<BackgroundTask> {
  const min = options.minIntervalMs ?? 2000;
  const max = options.maxIntervalMs ?? 5000;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  const maxErrors = options.maxConsecutiveErrors ?? 8;
  const sleep = options.sleep ?? defaultSleep;
  let interval = min;
  let errors = 0;
  let last: string | undefined;
  for (;;) {
    let task: BackgroundTask;
    try {
      task = await client.json<BackgroundTask>(`/api/background-tasks/uuid/${encodeURIComponent(uuid)}`);
    } catch (error) {
      const final = !(error instanceof ServiceError) || (error.status !== null && GIVE_UP_STATUSES.has(error.status));
      // Unreachable before the first answer: say so now rather than back off for minutes.
      if (final || last === undefined) throw error;
      errors += 1;
      if (errors >= maxErrors) throw error;
      const delay = Math.min(maxBackoff, max * 2 ** (errors - 1));
      options.onRetry?.(error, delay);
      await sleep(delay);
      continue;
    }
    errors = 0;
    const state = `${task.status}:${task.progress}`;
    if (state !== last) options.onUpdate?.(task);
    if (FINAL.has(task.status)) return task;
    interval = state === last ? Math.min(max, interval + 1000) : min;
    last = state;
    await sleep(interval);
  }
}
