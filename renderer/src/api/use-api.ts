import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiRequest, call, requestUrl } from './client.ts';

export interface ApiQuery<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
  /** Local changes, e.g. from live events, until the next load. */
  setData(update: (current: T | undefined) => T | undefined): void;
}

/** Loads `request` (when not null) and again whenever it changes; the last answer wins. */
export function useApiQuery<T>(request: ApiRequest | null): ApiQuery<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(request !== null);
  const [reloads, setReloads] = useState(0);
  const key = request ? `${request.method} ${requestUrl(request)}` : null;
  const requestRef = useRef(request);
  requestRef.current = request;

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and reloads are the triggers; the request itself is read through requestRef
  useEffect(() => {
    const current = requestRef.current;
    if (!current) return;
    const controller = new AbortController();
    setLoading(true);
    call<T>(current, { signal: controller.signal }).then(
      (answer) => {
        setDataState(answer);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [key, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const setData = useCallback((update: (current: T | undefined) => T | undefined) => setDataState(update), []);
  return { data, error, loading, reload, setData };
}

/** An action (create, delete…): its running state and its last error, shown next to its button. */
export function useApiAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(action);
  latest.current = action;
  const run = useCallback(async (...args: A): Promise<R | undefined> => {
    setRunning(true);
    setError(null);
    try {
      return await latest.current(...args);
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setRunning(false);
    }
  }, []);
  const clearError = useCallback(() => setError(null), []);
  return { run, running, error, clearError };
}
