import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from './client.ts';
import type { ApiRequest } from './request.ts';
import type { BackgroundTask } from './types.ts';
import { isRunning } from './task-format.ts';
import { isFinalFailure, remoteTaskRequest } from './remote-api.ts';
import { backoffDelay, nextPollDelay, REMOTE_POLL } from './remote-poll.ts';

export interface RemoteTaskWatch {
  request: ApiRequest;
  task: BackgroundTask | undefined;
  /** The last failed poll, until a poll succeeds. */
  error: unknown;
  /** Failed polls in a row. */
  failures: number;
  /** The wait before the next attempt after a failure, while polling goes on. */
  retryInMs: number | null;
  /** Why polling stopped early: a failure polling will not mend, or too many failures in a row. */
  stopped: 'final' | 'gave-up' | null;
  /** When the last answer came. */
  checkedAt: Date | null;
  retry(): void;
}

/**
 * Follows a task on a profile's service by polling it through the proxy every 2 to 5 s until it
 * is COMPLETED or FAILED, backing off after failures and giving up after 8 in a row (as the CLI).
 */
export function useRemoteTask(profile: string, uuid: string): RemoteTaskWatch {
  const request = remoteTaskRequest(profile, uuid);
  const [state, setState] = useState<Omit<RemoteTaskWatch, 'request' | 'retry'>>({
    task: undefined,
    error: null,
    failures: 0,
    retryInMs: null,
    stopped: null,
    checkedAt: null,
  });
  const [attempt, setAttempt] = useState(0);
  /** The task last answered (profile/uuid), so a retry after it was seen backs off instead of stopping at once. */
  const seen = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the retry trigger
  useEffect(() => {
    const key = `${profile}/${uuid}`;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay: number | null = null;
    let last: string | undefined;
    let failures = 0;
    const poll = async () => {
      try {
        const task = await call<BackgroundTask>(remoteTaskRequest(profile, uuid), { signal: controller.signal });
        seen.current = key;
        failures = 0;
        const moved = `${task.status}:${task.progress}`;
        delay = nextPollDelay(delay, moved !== last);
        last = moved;
        setState({ task, error: null, failures: 0, retryInMs: null, stopped: null, checkedAt: new Date() });
        if (isRunning(task)) timer = setTimeout(() => void poll(), delay);
      } catch (error) {
        if (controller.signal.aborted) return;
        failures += 1;
        // Not reachable before the first answer: say so at once rather than back off for minutes.
        const final = isFinalFailure(error) || seen.current !== key;
        if (final || failures >= REMOTE_POLL.maxFailures) {
          setState((s) => ({ ...s, error, failures, retryInMs: null, stopped: final ? 'final' : 'gave-up' }));
          return;
        }
        const wait = backoffDelay(failures);
        setState((s) => ({ ...s, error, failures, retryInMs: wait, stopped: null }));
        timer = setTimeout(() => void poll(), wait);
      }
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [profile, uuid, attempt]);

  const retry = useCallback(() => {
    setState((s) => ({ ...s, error: null, failures: 0, retryInMs: null, stopped: null }));
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, request, retry };
}
