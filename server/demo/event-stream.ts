import { demoWorker } from '../confirmations/compose.ts';
import type { ServiceClient } from '../remote/service-client.ts';
import { eventDefinition, simulatedEventTypes } from '../webhook-events/registry.ts';

const demoEvents = simulatedEventTypes.filter((type) => eventDefinition(type).simulate?.demo);

export const DEMO_EVENT_INTERVAL_MS = 5000;

/** Where a failed event is reported: the server's logger, or the desktop app's log. */
export interface DemoEventLog {
  warn(details: object, message: string): void;
}

/** The first events come quickly, so a fresh demo shows something happening in its first seconds. */
export const DEMO_WARM_UP_MS = [300, 1200, 1500, 2000];

/**
 * Keeps a demo alive: rounds of the events the registry marks for the demo (a check-in, a check-out at
 * the same QR code and a delivery at a random one), each round by the next of the demo workers, the first few events within seconds of the start
 * and then one every interval, so the live screen, the delivery log and the inspector show traffic.
 */
export function startDemoEvents(
  client: ServiceClient,
  organizationUuid: string,
  logger: DemoEventLog,
  intervalMs = DEMO_EVENT_INTERVAL_MS,
) {
  let count = 0;
  let running: Promise<unknown> = Promise.resolve();
  /** The QR code of each event type's last event, for an event sent at the same one (a check-out at its check-in's). */
  const lastQrCode = new Map<string, Promise<string | undefined>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const simulate = async (body: object): Promise<string | undefined> => {
    const res = await client.request('/api/service-confirmations/simulate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization_uuid: organizationUuid, ...body }),
    });
    const answer = (await res.json()) as { event?: { data?: { qr_code_uuid?: string } } };
    return answer.event?.data?.qr_code_uuid;
  };
  const send = () => {
    const index = count++;
    const event = demoEvents[index % demoEvents.length] ?? simulatedEventTypes[0];
    const overrides = { user: demoWorker(organizationUuid, Math.floor(index / demoEvents.length)) };
    const sameAs = eventDefinition(event).simulate?.sameQrCodeAs;
    const at = sameAs === undefined ? Promise.resolve(undefined) : (lastQrCode.get(sameAs) ?? Promise.resolve(undefined));
    const sent = at.then((qrCodeUuid) => simulate({ event, overrides, ...(qrCodeUuid ? { qr_code_uuid: qrCodeUuid } : {}) }));
    lastQrCode.set(
      event,
      sent.catch(() => undefined),
    );
    running = sent.catch((error: unknown) => logger.warn({ err: error }, 'demo event not sent'));
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
