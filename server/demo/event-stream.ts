import type { ServiceClient } from '../remote/service-client.ts';
import { eventTypes } from '../webhooks/events.ts';

export const DEMO_EVENT_INTERVAL_MS = 5000;

/** Where a failed event is reported: the server's logger, or the desktop app's log. */
export interface DemoEventLog {
  warn(details: object, message: string): void;
}

/** The first events come quickly, so a fresh demo shows something happening in its first seconds. */
export const DEMO_WARM_UP_MS = [300, 1200, 1500, 2000];

/**
 * Keeps a demo alive: a simulated check-in, check-out or delivery at a random QR code, the first
 * few within seconds of the start and then one every interval, so the live screen, the delivery
 * log and the inspector show traffic.
 */
export function startDemoEvents(
  client: ServiceClient,
  organizationUuid: string,
  logger: DemoEventLog,
  intervalMs = DEMO_EVENT_INTERVAL_MS,
) {
  let count = 0;
  let running: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const send = () => {
    const event = eventTypes[count++ % eventTypes.length];
    running = client
      .request('/api/service-confirmations/simulate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ organization_uuid: organizationUuid, event }),
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'demo event not sent'));
  };
  const next = () => {
    if (stopped) return;
    const delay = Math.min(DEMO_WARM_UP_MS[count] ?? intervalMs, intervalMs);
    timer = setTimeout(() => {
      send();
      next();
    }, delay);
  };
  next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
