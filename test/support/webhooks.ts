import assert from 'node:assert/strict';
import type { Delivery, WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import { waitFor } from '../webhooks/support.ts';
import { jsonBody, type TestServer } from './server.ts';

/** Registers a webhook for check-ins (plus `extra` fields) in the server's organization; asserts 201. */
export async function registerWebhook(server: TestServer, url: string, extra: Record<string, unknown> = {}): Promise<WebhookWithSecret> {
  const res = await server.request(
    '/api/webhooks/register',
    jsonBody({ organization_uuid: server.organizationUuid, url, events: ['service_confirmation.check_in'], ...extra }),
  );
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as WebhookWithSecret;
}

/** Simulates a check-in in the server's organization; asserts 201. */
export async function simulateCheckIn(server: TestServer): Promise<void> {
  const res = await server.request(
    '/api/service-confirmations/simulate',
    jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
  );
  assert.equal(res.status, 201, await res.clone().text());
}

/** A webhook's deliveries as the API lists them (newest first); asserts 200. */
export async function webhookDeliveries(server: TestServer, webhookUuid: string): Promise<Delivery[]> {
  const res = await server.request(`/api/webhooks/uuid/${webhookUuid}/deliveries?organization_uuid=${server.organizationUuid}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { items: Delivery[] }).items;
}

/** Polls (bounded, see waitFor) until the webhook's newest delivery is `done`; that delivery. */
export function newestDeliveryWhen(
  server: TestServer,
  webhookUuid: string,
  what: string,
  done: (d: Delivery) => unknown,
): Promise<Delivery> {
  return waitFor(what, async () => {
    const [newest] = await webhookDeliveries(server, webhookUuid);
    return newest && done(newest) ? newest : undefined;
  });
}
