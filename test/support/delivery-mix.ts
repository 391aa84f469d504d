import assert from 'node:assert/strict';
import { startReceiver, waitFor } from '../webhooks/support.ts';
import { jsonBody, type TestServer } from './server.ts';

interface Delivery {
  event_id: string;
  status: string;
  attempts: { status_code: number | null }[];
}

/**
 * A webhook to a receiver that answers in turn 200; 503 then 200; 503 twice, with two attempts
 * allowed per delivery: three events make 2 delivered, 2 retried and 1 failed attempt. `send` sends
 * one more event and waits until its delivery has settled.
 */
export async function deliveryMix(server: TestServer) {
  const org = server.organizationUuid;
  const answers = [200, 503, 200, 503, 503];
  const receiver = await startReceiver((_request, index) => ({ status: answers[index] ?? 200, body: 'answer' }));
  await server.request('/api/settings', jsonBody({ allow_http_webhooks: true }, 'PATCH'));
  const registered = await server.request(
    '/api/webhooks/register',
    jsonBody({ organization_uuid: org, url: `${receiver.url}/hooks`, events: ['service_confirmation.check_in'] }),
  );
  assert.equal(registered.status, 201, await registered.clone().text());
  const webhook = (await registered.json()) as { uuid: string };
  await server.request(`/api/webhooks/uuid/${webhook.uuid}`, jsonBody({ retry_schedule: [0] }, 'PATCH'));
  const deliveries = `/api/webhooks/uuid/${webhook.uuid}/deliveries?organization_uuid=${org}&per_page=100`;

  const send = async (): Promise<Delivery> => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }),
    );
    assert.ok(res.status < 300, await res.clone().text());
    const eventId = ((await res.json()) as { event: { id: string } }).event.id;
    return waitFor('the delivery settled', async () => {
      const page = (await (await server.request(deliveries)).json()) as { items: Delivery[] };
      const found = page.items.find((d) => d.event_id === eventId);
      return found && found.status !== 'pending' ? found : undefined;
    });
  };
  const settled = [await send(), await send(), await send()];
  assert.deepEqual(
    settled.map((d) => [d.status, d.attempts.length]),
    [
      ['delivered', 1],
      ['delivered', 2],
      ['failed', 2],
    ],
  );
  return { webhook, send, close: () => receiver.close() };
}
