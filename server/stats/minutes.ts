/** The minutes of a per-minute chart: whole UTC minutes, the last one the current (unfinished) minute. */

export const MAX_MINUTES = 1440;

/** `YYYY-MM-DDTHH:MM`, the minute of an ISO 8601 UTC time (what `substr(x, 1, 16)` gives in SQL). */
export const minuteOf = (iso: string): string => iso.slice(0, 16);

/** The `count` minutes up to and including the one `now` falls in, oldest first, and where the first begins. */
export function lastMinutes(now: Date, count: number): { since: string; minutes: string[] } {
  const current = Math.floor(now.getTime() / 60_000) * 60_000;
  const minutes = Array.from({ length: count }, (_, i) => new Date(current - (count - 1 - i) * 60_000).toISOString());
  return { since: minutes[0] ?? now.toISOString(), minutes: minutes.map(minuteOf) };
}

/** One bucket per minute, oldest first: the rows SQL grouped by minute, `empty` where a minute had none. */
export function fillMinutes<R extends { minute: string }, B>(
  minutes: string[],
  rows: R[],
  toBucket: (minute: string, row: R | undefined) => B,
): B[] {
  const byMinute = new Map(rows.map((row) => [row.minute, row]));
  return minutes.map((minute) => toBucket(minute, byMinute.get(minute)));
}
