import { useEffect, useState } from 'react';

/** The current time in ms, renewed every `everyMs` while `ticking` (a running task's elapsed time, "3 s ago"). */
export function useNow(ticking: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [ticking, everyMs]);
  return now;
}
