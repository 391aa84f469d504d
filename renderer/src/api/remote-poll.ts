/**
 * How the GUI polls a remote task: the schedule of `qr-sandbox tasks watch`
 * (server/remote/watch-task.ts), so both follow a task the same way.
 */
export const REMOTE_POLL = {
  /** docs/api.md: poll every 2 to 5 s. 2 s after the task moved, a second longer each time it did not, up to 5 s. */
  minMs: 2_000,
  maxMs: 5_000,
  stepMs: 1_000,
  /** After a failed poll: 5 s, doubling up to 30 s. */
  maxBackoffMs: 30_000,
  /** Failed polls in a row before giving up. */
  maxFailures: 8,
} as const;

/** The wait before the next poll after an answer; `previous` is the last wait (null before the first). */
export function nextPollDelay(previous: number | null, changed: boolean): number {
  if (changed || previous === null) return REMOTE_POLL.minMs;
  return Math.min(REMOTE_POLL.maxMs, previous + REMOTE_POLL.stepMs);
}

/** The wait after the `failures`-th failed poll in a row (1-based): 5, 10, 20, 30, 30… s. */
export function backoffDelay(failures: number): number {
  return Math.min(REMOTE_POLL.maxBackoffMs, REMOTE_POLL.maxMs * 2 ** (Math.max(1, failures) - 1));
}
