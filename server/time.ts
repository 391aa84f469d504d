/** ISO 8601 UTC with milliseconds, the timestamp format of background tasks. */
export function nowIso(): string {
  return new Date().toISOString();
}
