import assert from 'node:assert/strict';
import type { WebhookWithSecret } from '../../server/webhooks/schemas.ts';
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
