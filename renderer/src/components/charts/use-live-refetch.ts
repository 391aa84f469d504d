import { useEffect, useRef } from 'react';

const REFETCH_AT_MOST_EVERY_MS = 1_000;
/** The window of a per-minute chart moves on every minute even without events. */
const EVERY_MINUTE_MS = 60_000;

/** `refetch` on each `trigger` (at most once a second) and once a minute. */
export function useThrottledRefetch(refetch: () => void): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => {
    const minute = setInterval(() => latest.current(), EVERY_MINUTE_MS);
    return () => {
      clearInterval(minute);
      clearTimeout(timer.current);
    };
  }, []);
  return () => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, REFETCH_AT_MOST_EVERY_MS);
  };
}
