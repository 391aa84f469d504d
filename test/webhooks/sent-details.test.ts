import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInbox } from '../support/inboxes.ts';
import { jsonBody } from '../support/server.ts';
import { startReceiver, waitFor } from './support.ts';
import { suiteServer } from '../support/suite-server.ts';

interface Attempt {
  attempt: number;
  status_code: number | null;
  request_headers: Record<string, string> | null;
  request_body: string | null;
  inbox_message_uuid: string | null;
}
interface Delivery {
  delivery_id: string;
  event_id: string;
  status: string;
  attempts: Attempt[];
  payload: { id: string; type: string; data: { service: string } } | null;
  payload_verified: boolean | null;
  inbox_uuid: string | null;
}

/** The delivery log shows what was sent, not only the answer; the test event names the organization's own services. */
describe('webhook delivery log: what was sent', () => {
  const server = suiteServer();

  const register = async (url: string) => {
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: server.organizationUuid, url, events: ['service_confirmation.check_in'] }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { uuid: string; secret: string };
  };
  const simulate = async () => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
    );
    assert.ok(res.status < 300, await res.clone().text());
    return (await res.json()) as { event: { id: string; data: { service: string; services: { uuid: string; name: string }[] } } };
  };
  const delivered = (webhook: string, eventId: string) =>
    waitFor('the delivery', async () => {
      const page = (await (
        await server.request(`/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${server.organizationUuid}`)
      ).json()) as {
        items: Delivery[];
      };
      const found = page.items.find((d) => d.event_id === eventId);
      return found && found.status === 'delivered' && found.attempts.length > 0 ? found : undefined;
    });

  it('records the headers and encrypted body of each attempt, decrypts the payload with the secret, and links the local inbox message', async () => {
    const inbox = await createInbox(server);
    const webhook = await register(inbox.url);
    const sent = await simulate();
    const delivery = await delivered(webhook.uuid, sent.event.id);
    const attempt = delivery.attempts[0];
    assert.ok(attempt?.request_headers && attempt.request_body);
    assert.match(attempt.request_headers['X-Service-Signature'] ?? '', /^sha256=[0-9a-f]{64}$/);
    assert.deepEqual(
      Object.keys(attempt.request_headers).sort(),
      ['Content-Type', 'User-Agent', 'X-Service-Signature'],
      'only what the service sends: the inbox message is linked from the sandbox records, not from headers',
    );
    assert.match(attempt.request_body, /^\{"payload":"[A-Za-z0-9+/=]+"\}$/);
    assert.equal(delivery.payload?.id, sent.event.id, 'the decrypted payload is the event that was sent');
    assert.equal(delivery.payload_verified, true);
    assert.equal(delivery.inbox_uuid, inbox.uuid);
    assert.ok(attempt.inbox_message_uuid);
    const message = (await (await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages/${attempt.inbox_message_uuid}`)).json()) as {
      body: string;
      delivery_id: string;
    };
    assert.equal(message.body, attempt.request_body, 'the inspector message got exactly the body the log shows');
    assert.equal(message.delivery_id, delivery.delivery_id);
  });

  it('any other receiver: no inbox link, and the body is the one the receiver got', async () => {
    const receiver = await startReceiver();
    try {
      const webhook = await register(`${receiver.url}/hook`);
      const sent = await simulate();
      const delivery = await delivered(webhook.uuid, sent.event.id);
      assert.equal(delivery.inbox_uuid, null);
      assert.equal(delivery.attempts[0]?.inbox_message_uuid, null);
      assert.ok(receiver.received.some((r) => r.body === delivery.attempts[0]?.request_body));
    } finally {
      await receiver.close();
    }
  });

  it("the test event's services come from the organization's catalog", async () => {
    const created = await server.request(
      '/api/services',
      jsonBody({ organization_uuid: server.organizationUuid, name: 'Roof Inspection', code: 'ROOF' }),
    );
    assert.equal(created.status, 201, await created.clone().text());
    const catalog = (await (await server.request(`/api/services?organization_uuid=${server.organizationUuid}&per_page=100`)).json()) as {
      items: { uuid: string; name: string }[];
    };
    const known = new Map(catalog.items.map((s) => [s.uuid, s.name]));
    for (let i = 0; i < 5; i++) {
      const { event } = await simulate();
      assert.ok([...known.values()].includes(event.data.service), `${event.data.service} is in the catalog`);
      for (const service of event.data.services) assert.equal(known.get(service.uuid), service.name);
    }
  });
});
