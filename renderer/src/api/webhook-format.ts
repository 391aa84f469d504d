import type { DeliveryStatus, RetryScheduleName } from './webhook-types.ts';

export const deliveryStatusLabels: Record<DeliveryStatus, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

export const scheduleLabels: Record<RetryScheduleName, { title: string; detail: string }> = {
  standard: { title: 'Standard', detail: 'Retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, as the real service does.' },
  fast: { title: 'Fast', detail: 'Retries after 1 s, 2 s, 5 s, 10 s and 30 s: for demos and tests.' },
};

/**
 * Webhook timestamps read "2026-11-21 20:14:21.123456" (UTC, microseconds, docs/webhooks.md); as ISO
 * with milliseconds they can be formatted like every other time.
 */
export function microsToIso(timestamp: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,3})?\d*Z?$/.exec(timestamp);
  if (!match) return timestamp;
  return `${match[1]}T${match[2]}${(match[3] ?? '.000').padEnd(4, '0')}Z`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** "in 4 s", "in 5 min", "now" for a time in the future; "due" once it has passed. */
export function untilText(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return '';
  if (ms <= 500) return 'due now';
  const s = Math.round(ms / 1000);
  if (s < 60) return `in ${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `in ${min} min`;
  const h = Math.floor(min / 60);
  return `in ${h} h ${min % 60} min`;
}

/** Whether http://host needs the settings switch: loopback names are always allowed (docs/webhooks.md). */
export function urlHint(raw: string): 'https' | 'loopback-http' | 'remote-http' | 'other' | 'empty' {
  const text = raw.trim();
  if (text === '') return 'empty';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'other';
  }
  if (url.protocol === 'https:') return 'https';
  if (url.protocol !== 'http:') return 'other';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  return loopback ? 'loopback-http' : 'remote-http';
}

/** "1, 5, 30" (seconds) as the API's waits in ms; null when a part is not a number. */
export function waitsOf(text: string): number[] | null {
  const parts = text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const waits = parts.map((p) => (/^\d+(\.\d+)?$/.test(p) ? Math.round(Number(p) * 1000) : Number.NaN));
  return waits.length > 0 && waits.every((w) => Number.isFinite(w)) ? waits : null;
}
