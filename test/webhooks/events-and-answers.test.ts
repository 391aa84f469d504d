import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInbox } from '../support/inboxes.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { startReceiver, waitFor } from './support.ts';

interface Attempt {
  attempt: number;
  status_code: number | null;
  response_excerpt: string | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  response_body_truncated: boolean;
}
interface Delivery {
  delivery_id: string;
  event_id: string;
  status: string;
  attempts: Attempt[];
}
interface EventItem {
  id: string;
  type: string;
  created_at: string;
  qr_code_uuid: string | null;
  service: string | null;
  location: string | null;
  worker: string | null;
  deliveries: {
    delivery_id: string;
    webhook_uuid: string;
    webhook_url: string;
    status: string;
    attempt_count: number;
    last_status_code: number | null;
  }[];
}
interface Page<T> {
  items: T[];
  total: number;
  pages: number;
  page: number;
  per_page: number;
}

/** Each attempt keeps the answer in full (within a bound); the events across all webhooks; the counters; a delivery by its id. */
describe('webhook events across webhooks and the answers of attempts', () => {
  const server = suiteServer();
  const org = () => server.organizationUuid;
  const json = async <T>(path: string): Promise<T> => {
    const res = await server.request(path);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as T;
  };
  const register = async (url: string) => {
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org(), url, events: ['service_confirmation.check_in'] }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { uuid: string };
  };
  const simulate = async () => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: org(), event: 'service_confirmation.check_in' }),
    );
    assert.ok(res.status < 300, await res.clone().text());
    return (await res.json()) as {
      event: { id: string; data: { service: string; location: string; user: { firstname: string; lastname: string } } };
    };
  };
  const settled = (webhook: string, eventId: string) =>
    waitFor('the delivery', async () => {
      const page = await json<Page<Delivery>>(`/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${org()}`);
      const found = page.items.find((d) => d.event_id === eventId);
      return found && found.status !== 'pending' && found.attempts.length > 0 ? found : undefined;
    });

  it("keeps the answer's headers and its body up to 64 KiB, and says when it was cut", async () => {
    const big = 'x'.repeat(70 * 1024);
    const receiver = await startReceiver((_request, index) =>
      index === 0
        ? { status: 200, headers: { 'content-type': 'text/plain', 'x-receiver': 'first' }, body: big }
        : { status: 200, body: 'ok' },
    );
    try {
      await server.request('/api/settings', jsonBody({ allow_http_webhooks: true }, 'PATCH'));
      const webhook = await register(`${receiver.url}/hooks`);
      const sent = await simulate();
      const delivery = await settled(webhook.uuid, sent.event.id);
      const attempt = delivery.attempts[0];
      assert.ok(attempt);
      assert.equal(attempt.status_code, 200);
      assert.equal(attempt.response_headers?.['x-receiver'], 'first');
      assert.equal(attempt.response_headers?.['content-type'], 'text/plain');
      assert.equal(attempt.response_body?.length, 64 * 1024, 'the body up to the bound');
      assert.equal(attempt.response_body_truncated, true);
      assert.equal(attempt.response_excerpt?.length, 1024, 'the excerpt stays 1 KB');
      await server.request(`/api/webhooks/uuid/${webhook.uuid}`, jsonBody({ is_active: false }, 'PATCH'));
    } finally {
      await receiver.close();
    }
  });

  it('lists events across all webhooks newest first, in plain words, with each delivery and its status; counts them', async () => {
    const inbox = await createInbox(server, { name: 'Events inbox' });
    const failing = await createInbox(server, { name: 'Failing inbox', response: { status: 503 } });
    const ok = await register(inbox.url);
    const bad = await register(failing.url);
    const sent = await simulate();
    await settled(ok.uuid, sent.event.id);
    await waitFor('the failing attempt', async () => {
      const page = await json<Page<Delivery>>(`/api/webhooks/uuid/${bad.uuid}/deliveries?organization_uuid=${org()}`);
      return page.items.find((d) => d.event_id === sent.event.id && d.attempts.some((a) => a.status_code === 503));
    });

    const page = await json<Page<EventItem>>(`/api/webhook-events?organization_uuid=${org()}&per_page=1`);
    assert.equal(page.page, 1);
    assert.ok(page.total >= 2, 'the event of the first test too');
    const [event] = page.items;
    assert.ok(event);
    assert.equal(event.id, sent.event.id, 'newest first');
    assert.equal(event.type, 'service_confirmation.check_in');
    assert.equal(event.service, sent.event.data.service);
    assert.equal(event.location, sent.event.data.location);
    assert.equal(event.worker, `${sent.event.data.user.firstname} ${sent.event.data.user.lastname}`);
    const byWebhook = new Map(event.deliveries.map((d) => [d.webhook_uuid, d]));
    assert.equal(byWebhook.get(ok.uuid)?.status, 'delivered');
    assert.equal(byWebhook.get(ok.uuid)?.last_status_code, 200);
    assert.equal(byWebhook.get(ok.uuid)?.webhook_url, inbox.url);
    assert.equal(byWebhook.get(bad.uuid)?.last_status_code, 503);

    const last = await json<Page<EventItem>>(`/api/webhook-events?organization_uuid=${org()}&per_page=1&page=${page.total}`);
    assert.notEqual(last.items[0]?.id, event.id, 'the last page holds the oldest event');
    const past = await json<Page<EventItem>>(`/api/webhook-events?organization_uuid=${org()}&page=99`);
    assert.deepEqual(past.items, []);

    // Filters: by type, by a delivery's status, by webhook, and the status of that webhook's delivery.
    const ids = async (filter: string) =>
      (await json<Page<EventItem>>(`/api/webhook-events?organization_uuid=${org()}&per_page=100&${filter}`)).items.map((e) => e.id);
    assert.ok((await ids('type=service_confirmation.check_in')).includes(event.id));
    assert.ok(!(await ids('type=service_confirmation.check_out')).includes(event.id));
    assert.ok((await ids(`webhook_uuid=${bad.uuid}`)).includes(event.id));
    assert.ok((await ids(`webhook_uuid=${ok.uuid}&status=delivered`)).includes(event.id));
    assert.ok(
      !(await ids(`webhook_uuid=${bad.uuid}&status=delivered`)).includes(event.id),
      'its delivery to the failing inbox is not delivered',
    );
    assert.ok((await ids('status=delivered')).includes(event.id), 'delivered to one of its webhooks');
    const wrongType = await server.request(`/api/webhook-events?organization_uuid=${org()}&type=qrcode.created`);
    assert.equal(wrongType.status, 400);

    const activity = await json<{
      events: number;
      deliveries: { delivered: number; failed: number; pending: number };
      imports: number;
      demo: unknown;
    }>(`/api/activity?organization_uuid=${org()}`);
    assert.equal(activity.events, page.total);
    assert.ok(activity.deliveries.delivered >= 2);
    assert.equal(activity.imports, 0);
    assert.equal(activity.demo, null, 'not in demo mode');

    const lookup = await json<{ webhook_uuid: string; event_id: string }>(
      `/api/webhook-deliveries/${byWebhook.get(ok.uuid)?.delivery_id}?organization_uuid=${org()}`,
    );
    assert.deepEqual([lookup.webhook_uuid, lookup.event_id], [ok.uuid, sent.event.id]);
    await server.request(`/api/webhooks/uuid/${bad.uuid}`, jsonBody({ is_active: false }, 'PATCH'));
  });

  it('answers 404 for an unknown delivery id and 403 for another organization', async () => {
    const missing = await server.request(`/api/webhook-deliveries/dlv_nothing?organization_uuid=${org()}`);
    assert.equal(missing.status, 404);
    const body = (await missing.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'NOT_FOUND');
    for (const path of ['/api/webhook-events', '/api/activity', '/api/webhook-deliveries/dlv_nothing']) {
      const other = await server.request(`${path}?organization_uuid=00000000-0000-0000-0000-000000000000`);
      assert.equal(other.status, 403, path);
    }
  });
});
