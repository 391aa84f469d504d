import type { ServiceClient } from '../remote/service-client.ts';
import { eventTypes } from '../webhooks/events.ts';

export const DEMO_EVENT_INTERVAL_MS = 5000;

/** Where a failed event is reported: the server's logger, or the desktop app's log. */
export interface DemoEventLog {
  warn(details: object, message: string): void;
}

/**
 * Keeps a demo alive: every few seconds a simulated check-in, check-out or delivery at a random
 * QR code, so the task monitor, the delivery log and the inspector show traffic.
 */
export function startDemoEvents(
  client: ServiceClient,
  organizationUuid: string,
  logger: DemoEventLog,
  intervalMs = DEMO_EVENT_INTERVAL_MS,
) {
  let count = 0;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    const event = eventTypes[count++ % eventTypes.length];
    running = client
      .request('/api/service-confirmations/simulate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ organization_uuid: organizationUuid, event }),
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'demo event not sent'));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
