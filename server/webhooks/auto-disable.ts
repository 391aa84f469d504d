/**
 * A webhook whose every attempt failed for this long is disabled (organization setting
 * webhook_auto_disable_after_s). A day: on a developer's machine an endpoint down that long is a
 * forgotten registration (the app was stopped, the tunnel closed), not an outage to ride out as a
 * production service must (Svix waits 5 days); it stops piling up retries in the outbox and the
 * delivery log, and enabling it again is one click. 0 never disables.
 */
export const DEFAULT_AUTO_DISABLE_AFTER_S = 24 * 60 * 60;
export const MAX_AUTO_DISABLE_AFTER_S = 90 * 24 * 60 * 60;

export function describeDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s % 86400 === 0) return `${s / 86400} day${s === 86400 ? '' : 's'}`;
  if (s % 3600 === 0) return `${s / 3600} h`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}
