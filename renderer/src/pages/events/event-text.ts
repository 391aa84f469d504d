import { eventLabel } from '../../api/webhook-events.ts';

/** "Check-in · Electrical Inspection · 252 Lygon St, Hobart": an event in plain words, from its decrypted data. */
export function eventSentence(event: { type: string; service: string | null; location: string | null }): string {
  return [eventLabel(event.type), event.service, event.location].filter(Boolean).join(' · ');
}

/** "just now", "12 s ago", "4 min ago", "2 h ago", then the date. */
export function agoText(iso: string, now: number): string {
  const ms = now - Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  if (ms < 5_000) return 'just now';
  if (ms < 60_000) return `${Math.floor(ms / 1000)} s ago`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ago`;
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)} h ago`;
  return new Date(iso).toLocaleString();
}

/** The host and path of a webhook URL, short enough for a badge. */
export function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const whole = `${parsed.host}${parsed.pathname}`;
    return whole.length > 30 ? `${whole.slice(0, 29)}…` : whole;
  } catch {
    return url;
  }
}
