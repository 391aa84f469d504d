import type { ServiceClient } from '../remote/service-client.ts';
import { demoWorker } from '../confirmations/compose.ts';
import { checkInEvent, checkOutEvent } from '../confirmations/events.ts';
import { serviceEventTypes } from '../webhook-events/registry.ts';

/** The flaky app's retry waits: long enough to watch "Next attempt in 5 s" count down. */
export const FLAKY_RETRY_SCHEDULE = [5_000, 10_000, 30_000];

/** The flaky app answers 503 to the first two attempts of every check-out; the third is delivered. */
export const FLAKY_RULES = [
  {
    match: { event_type: [checkOutEvent.type], attempt_at_most: 2 },
    respond: { status: 503, body: { error: 'Flaky app: database busy, try again shortly' } },
  },
];

/** The broken variant the demo sends once to the demo inbox: sealed with a wrong secret, so its signature is invalid. */
export const BROKEN_VARIANT = 'wrong_secret';
const WAIT_FOR_MESSAGE_S = 20;

interface Inbox {
  uuid: string;
  url: string;
}

const postJson = <T>(client: ServiceClient, path: string, body: unknown) =>
  client.json<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * Two receivers, each with a webhook subscribed to every event the service sends: the demo inbox, which answers every
 * delivery 200, and the flaky app, which fails some attempts (FLAKY_RULES) on a short retry schedule.
 */
export async function addDemoWebhooks(client: ServiceClient, organizationUuid: string) {
  const inbox = await postJson<Inbox>(client, '/api/inboxes', { organization_uuid: organizationUuid, name: 'Demo inbox' });
  const webhook = await postJson<{ uuid: string }>(client, '/api/webhooks/register', {
    organization_uuid: organizationUuid,
    url: inbox.url,
    events: [...serviceEventTypes],
  });
  const flaky = await postJson<Inbox>(client, '/api/inboxes', {
    organization_uuid: organizationUuid,
    name: 'Flaky app',
    rules: FLAKY_RULES,
  });
  const flakyWebhook = await postJson<{ uuid: string }>(client, '/api/webhooks/register', {
    organization_uuid: organizationUuid,
    url: flaky.url,
    events: [...serviceEventTypes],
    retry_schedule: FLAKY_RETRY_SCHEDULE,
  });
  return { inbox, webhook, flaky, flakyWebhook };
}

/**
 * A first check-in, then its delivery to the demo inbox sent again sealed with a wrong secret: the
 * inbox flags its signature invalid, and the decrypt doctor has something to explain.
 */
export async function sendBrokenSignature(client: ServiceClient, organizationUuid: string, inboxUuid: string): Promise<string> {
  await postJson(client, '/api/service-confirmations/simulate', {
    organization_uuid: organizationUuid,
    event: checkInEvent.type,
    overrides: { user: demoWorker(organizationUuid, 0) },
  });
  const waited = await client.json<{ messages: { uuid: string }[] }>(
    `/api/inboxes/uuid/${inboxUuid}/messages/wait?organization_uuid=${organizationUuid}&timeout_s=${WAIT_FOR_MESSAGE_S}`,
    undefined,
    (WAIT_FOR_MESSAGE_S + 5) * 1000,
  );
  const first = waited.messages[0];
  if (!first) throw new Error(`No delivery reached the demo inbox within ${WAIT_FOR_MESSAGE_S} s.`);
  const resent = await postJson<{ inbox_message_uuid?: string | null }>(
    client,
    `/api/inboxes/uuid/${inboxUuid}/messages/${first.uuid}/resend`,
    { variant: BROKEN_VARIANT },
  );
  if (!resent.inbox_message_uuid) throw new Error('The delivery with a broken signature did not reach the demo inbox.');
  return resent.inbox_message_uuid;
}
