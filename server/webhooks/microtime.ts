/**
 * Timestamps of webhooks and service confirmations (docs/webhooks.md): date, space, time with
 * microseconds, UTC, e.g. "2026-11-21 20:14:21.123456".
 */
export function nowMicros(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  return formatMicros(micros);
}

export function formatMicros(epochMicros: number): string {
  const millis = Math.floor(epochMicros / 1000);
  const iso = new Date(millis).toISOString(); // 2026-11-21T20:14:21.123Z
  const fraction = String(epochMicros % 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction}`;
}

export const MICROS_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
