import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { open } from '../../server/wire-format/open.ts';
import { sign } from '../../server/wire-format/signature.ts';
import type { Delivery, WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import { jsonBody, type TestServer, startTestServer } from '../support/server.ts';
import { startReceiver, waitFor } from './support.ts';
import { newestDeliveryWhen, webhookDeliveries } from '../support/webhooks.ts';

async function register(server: TestServer, body: Record<string, unknown>): Promise<WebhookWithSecret> {
  const res = await server.request('/api/webhooks/register', jsonBody({ organization_uuid: server.organizationUuid, ...body }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as WebhookWithSecret;
}

async function simulate(server: TestServer, event: string) {
  const res = await server.request('/api/service-confirmations/simulate', jsonBody({ organization_uuid: server.organizationUuid, event }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as {
    event: { id: string; type: string; data: { uuid: string } };
    deliveries: { delivery_id: string; webhook_uuid: string }[];
  };
}

describe('webhook delivery to a real local receiver', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    server = await startTestServer({ webhookRetrySchedule: 'fast', webhookTimeoutMs: 1000 });
    let flaky = 0;
    receiver = await startReceiver((request) => {
      if (request.path === '/flaky') return flaky++ === 0 ? { status: 500, body: 'boom' } : { status: 200, body: 'thanks' };
      if (request.path === '/redirect') return { status: 302, headers: { location: '/elsewhere' } };
      if (request.path === '/slow') return { status: 200, delayMs: 5000 };
      if (request.path === '/down') return { status: 500, body: 'down' };
      return { status: 200, body: 'ok' };
    });
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  test('a 500 is retried with the same delivery id and attempt 2 (X-Sandbox-* headers, opted in); inactive and unsubscribed webhooks get nothing', async () => {
    const webhook = await register(server, {
      url: `${receiver.url}/flaky`,
      events: ['service_confirmation.check_in'],
      sandbox_diagnostics: true,
    });
    const inactive = await register(server, {
      url: `${receiver.url}/inactive`,
      events: ['service_confirmation.check_in'],
      is_active: false,
    });
    const otherEvent = await register(server, { url: `${receiver.url}/other-event`, events: ['service_confirmation.delivery'] });

    const { event, deliveries: queued } = await simulate(server, 'service_confirmation.check_in');
    assert.deepEqual(
      queued.map((d) => d.webhook_uuid),
      [webhook.uuid],
    );

    const delivered = await newestDeliveryWhen(server, webhook.uuid, 'the delivery to succeed', (d) => d.status === 'delivered');
    const flaky = receiver.received.filter((r) => r.path === '/flaky');
    assert.equal(flaky.length, 2);
    const [first, second] = flaky;
    assert.ok(first && second);
    for (const [index, request] of flaky.entries()) {
      assert.equal(request.method, 'POST');
      assert.equal(request.headers['content-type'], 'application/json');
      assert.equal(request.headers.authorization, undefined);
      assert.equal(request.headers['x-sandbox-event'], 'service_confirmation.check_in');
      assert.equal(request.headers['x-sandbox-delivery-id'], delivered.delivery_id);
      assert.equal(request.headers['x-sandbox-attempt'], String(index + 1));
      const signature = request.headers['x-service-signature'];
      assert.ok(typeof signature === 'string');
      assert.match(signature, /^sha256=[0-9a-f]{64}$/);
      assert.deepEqual(Object.keys(JSON.parse(request.body) as object), ['payload']);
      const opened = open(request.body, signature, webhook.secret);
      assert.equal(opened.verified, true);
      assert.equal(sign(opened.plaintext, webhook.secret), signature.slice('sha256='.length));
      const envelope = opened.json as { id: string; type: string; created_at: string; data: { uuid: string } };
      assert.deepEqual(Object.keys(envelope), ['id', 'type', 'created_at', 'data']);
      assert.equal(opened.plaintext, JSON.stringify(envelope), 'the plaintext is the envelope as JSON.stringify writes it');
      assert.equal(envelope.id, event.id);
      assert.match(envelope.id, /^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(envelope.type, 'service_confirmation.check_in');
      assert.match(envelope.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(envelope.data.uuid, event.data.uuid);
    }
    assert.notEqual(first.body, second.body, 'each attempt has a fresh IV');
    assert.equal(first.headers['x-service-signature'], second.headers['x-service-signature']);

    assert.equal(delivered.event_id, event.id);
    assert.equal(delivered.event_type, 'service_confirmation.check_in');
    assert.equal(delivered.attempt_count, 2);
    assert.equal(delivered.next_attempt_on, null);
    assert.deepEqual(
      delivered.attempts.map((a) => [a.attempt, a.status_code, a.response_excerpt]),
      [
        [1, 500, 'boom'],
        [2, 200, 'thanks'],
      ],
    );
    assert.match(delivered.attempts[0]?.error ?? '', /500/);
    assert.equal(delivered.attempts[1]?.error, null);
    assert.ok(delivered.attempts.every((a) => typeof a.duration_ms === 'number' && a.duration_ms >= 0));

    assert.deepEqual(await webhookDeliveries(server, inactive.uuid), []);
    assert.deepEqual(await webhookDeliveries(server, otherEvent.uuid), []);
    assert.equal(receiver.received.filter((r) => r.path === '/inactive' || r.path === '/other-event').length, 0);
  });

  test('a redirect is not followed and counts as a failure', async () => {
    const webhook = await register(server, { url: `${receiver.url}/redirect`, events: ['service_confirmation.check_out'] });
    await simulate(server, 'service_confirmation.check_out');
    const delivery = await newestDeliveryWhen(
      server,
      webhook.uuid,
      'the first attempt',
      (d) => typeof d.attempts[0]?.duration_ms === 'number',
    );
    const attempt = delivery.attempts[0];
    assert.equal(attempt?.status_code, 302);
    assert.match(attempt?.error ?? '', /Redirect 302 to \/elsewhere not followed/);
    assert.notEqual(delivery.attempts.at(-1)?.status_code, 200);
    assert.equal(receiver.received.filter((r) => r.path === '/elsewhere').length, 0);
    assert.ok(delivery.status !== 'delivered');
    await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
  });

  test('a receiver that does not answer in time is a timeout failure, retried later', async () => {
    const webhook = await register(server, { url: `${receiver.url}/slow`, events: ['service_confirmation.delivery'] });
    await simulate(server, 'service_confirmation.delivery');
    const delivery = await newestDeliveryWhen(server, webhook.uuid, 'the first attempt to time out', (d) => d.attempts[0]?.error);
    assert.equal(delivery.attempts[0]?.status_code, null);
    assert.match(delivery.attempts[0]?.error ?? '', /timeout/);
    assert.equal(delivery.status, 'pending');
    assert.ok(delivery.next_attempt_on);
    await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
  });

  test('redeliver sends a delivered delivery again: same delivery id, next attempt number', async () => {
    const webhook = await register(server, {
      url: `${receiver.url}/again`,
      events: ['service_confirmation.check_in'],
      sandbox_diagnostics: true,
    });
    await simulate(server, 'service_confirmation.check_in');
    const first = await newestDeliveryWhen(server, webhook.uuid, 'the first delivery', (d) => d.status === 'delivered');
    const res = await server.request(`/api/webhooks/uuid/${webhook.uuid}/deliveries/${first.delivery_id}/redeliver`, { method: 'POST' });
    assert.equal(res.status, 202, await res.clone().text());
    assert.equal(((await res.json()) as Delivery).status, 'pending');
    const again = await newestDeliveryWhen(
      server,
      webhook.uuid,
      'the redelivery',
      (d) => d.status === 'delivered' && d.attempt_count === 2,
    );
    assert.deepEqual(
      again.attempts.map((a) => [a.attempt, a.status_code]),
      [
        [1, 200],
        [2, 200],
      ],
    );
    const requests = receiver.received.filter((r) => r.path === '/again');
    assert.deepEqual(
      requests.map((r) => [r.headers['x-sandbox-delivery-id'], r.headers['x-sandbox-attempt']]),
      [
        [first.delivery_id, '1'],
        [first.delivery_id, '2'],
      ],
    );
    assert.equal(
      (await server.request(`/api/webhooks/uuid/${webhook.uuid}/deliveries/no-such-id/redeliver`, { method: 'POST' })).status,
      404,
    );
    await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
  });

  test('deactivating a webhook stops its pending retries; redeliver then asks to activate it', async () => {
    const webhook = await register(server, { url: `${receiver.url}/down`, events: ['service_confirmation.check_out'] });
    await simulate(server, 'service_confirmation.check_out');
    const failing = await newestDeliveryWhen(server, webhook.uuid, 'the first failed attempt', (d) => d.attempts[0]?.status_code === 500);
    const patched = await server.request(`/api/webhooks/uuid/${webhook.uuid}`, jsonBody({ is_active: false }, 'PATCH'));
    assert.equal(patched.status, 200);
    const stopped = await newestDeliveryWhen(server, webhook.uuid, 'the delivery to stop', (d) => d.status === 'failed');
    assert.match(stopped.status_reason ?? '', /inactive|deactivated/);
    assert.equal(stopped.next_attempt_on, null);
    const res = await server.request(`/api/webhooks/uuid/${webhook.uuid}/deliveries/${failing.delivery_id}/redeliver`, { method: 'POST' });
    assert.equal(res.status, 409);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /activate/);
    await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
  });

  test('the URL is checked again before each attempt', async () => {
    const allow = (value: boolean) => server.request('/api/settings', jsonBody({ allow_http_webhooks: value }, 'PATCH'));
    assert.equal((await allow(true)).status, 200);
    const webhook = await register(server, { url: 'http://192.0.2.10:9/hook', events: ['service_confirmation.check_out'] });
    assert.equal((await allow(false)).status, 200);
    await simulate(server, 'service_confirmation.check_out');
    const refused = await newestDeliveryWhen(server, webhook.uuid, 'the refused attempt', (d) => d.status === 'failed');
    assert.match(refused.attempts[0]?.error ?? '', /^Not sent: Plain http:\/\/ is allowed only to this machine/);
    assert.equal(refused.attempts[0]?.status_code, null);
    assert.equal(refused.attempt_count, 1);
    await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
  });

  test('POST /api/service-confirmations emits its event, and each attempt is published on the live bus', async () => {
    const webhook = await register(server, { url: `${receiver.url}/created`, events: ['service_confirmation.delivery'] });
    const attempts: unknown[] = [];
    const unsubscribe = server.ctx.live.subscribe((event) => {
      if (event.type === 'delivery.attempt') attempts.push(event.data);
    });
    try {
      const qr = (await simulate(server, 'service_confirmation.check_in')).event.data as { qr_code_uuid?: string };
      const res = await server.request(
        '/api/service-confirmations',
        jsonBody({
          organization_uuid: server.organizationUuid,
          qr_code_uuid: qr.qr_code_uuid,
          status: 'DELIVERY',
          note: 'Signed by reception',
        }),
      );
      assert.equal(res.status, 201, await res.clone().text());
      const record = (await res.json()) as { uuid: string };
      const request = await waitFor('the delivery', () => receiver.received.find((r) => r.path === '/created'));
      const signature = String(request.headers['x-service-signature']);
      const opened = open(request.body, signature, webhook.secret);
      assert.equal(opened.verified, true);
      const envelope = opened.json as { type: string; data: unknown };
      assert.equal(envelope.type, 'service_confirmation.delivery');
      assert.deepEqual(envelope.data, record);
      const published = await waitFor(
        'the live event',
        () =>
          attempts.find((a) => (a as { webhook_uuid: string }).webhook_uuid === webhook.uuid) as
            | { status: string; status_code: number; attempt: number }
            | undefined,
      );
      assert.equal(published.status, 'delivered');
      assert.equal(published.status_code, 200);
      assert.equal(published.attempt, 1);
    } finally {
      unsubscribe();
      await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
    }
  });
});
