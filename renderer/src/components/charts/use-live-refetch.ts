import { useEffect, useRef } from 'react';

const REFETCH_AT_MOST_EVERY_MS = 1_000;
/** The window of a per-minute chart moves on every minute even without events. */
const EVERY_MINUTE_MS = 60_000;

/**
 * `refetch` on each `trigger` and once a minute: at once for the first trigger, so the chart agrees
 * with the counters beside it, then at most once a second while triggers keep coming.
 */
export function useThrottledRefetch(refetch: () => void): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef(false);
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => {
    const minute = setInterval(() => latest.current(), EVERY_MINUTE_MS);
    return () => {
      clearInterval(minute);
      clearTimeout(timer.current);
    };
  }, []);
  const quietAfter = () => {
    timer.current = setTimeout(() => {
      timer.current = undefined;
      if (!pending.current) return;
      pending.current = false;
      latest.current();
      quietAfter();
    }, REFETCH_AT_MOST_EVERY_MS);
  };
  return () => {
    if (timer.current !== undefined) {
      pending.current = true;
      return;
    }
    latest.current();
    quietAfter();
  };
}
