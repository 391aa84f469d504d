import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BulkRedeliverResult } from '../../server/webhooks/bulk-delivery-schemas.ts';
import type { Delivery, WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import { bearer, jsonBody, type TestServer, startTestServer } from '../support/server.ts';
import { startReceiver, waitFor } from './support.ts';

type Page<T> = { items: T[]; total: number; pages: number; page: number; per_page: number };

describe('the deliveries of all webhooks, and the bulk redeliver of failed ones', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let down = true;
  let failing: WebhookWithSecret;
  let healthy: WebhookWithSecret;
  let viewerAuth: string;
  let before1: string;

  const org = () => server.organizationUuid;
  const list = async (query: string): Promise<Page<Delivery>> => {
    const res = await server.request(`/api/webhooks/deliveries?organization_uuid=${org()}${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Page<Delivery>;
  };
  const register = async (path: string): Promise<WebhookWithSecret> => {
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({
        organization_uuid: org(),
        url: `${receiver.url}${path}`,
        events: ['service_confirmation.check_in'],
        sandbox_diagnostics: true,
      }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as WebhookWithSecret;
  };
  const simulate = async () => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: org(), event: 'service_confirmation.check_in' }),
    );
    assert.equal(res.status, 201, await res.clone().text());
  };
  const patch = async (uuid: string, body: Record<string, unknown>) =>
    assert.equal((await server.request(`/api/webhooks/uuid/${uuid}`, jsonBody(body, 'PATCH'))).status, 200);

  before(async () => {
    server = await startTestServer({ webhookRetrySchedule: 'fast', webhookTimeoutMs: 1000 });
    receiver = await startReceiver((request) =>
      request.path === '/app' && down ? { status: 503, body: 'down' } : { status: 200, body: 'ok' },
    );
    failing = await register('/app');
    healthy = await register('/healthy');
    before1 = new Date().toISOString();
    for (let i = 0; i < 3; i++) await simulate();
    // Every delivery to /app has had its first attempt (a 503); deactivating the webhook fails them.
    await waitFor('the first attempts', async () => {
      const page = await list(`&webhook_uuid=${failing.uuid}`);
      return page.total === 3 && page.items.every((d) => d.attempts.length > 0 && d.attempts[0]?.status_code === 503) ? true : undefined;
    });
    await waitFor('the healthy deliveries', async () => ((await list('&status=delivered')).total === 3 ? true : undefined));
    await patch(failing.uuid, { is_active: false });
    // An attempt in flight when it was deactivated ends the delivery when it comes back.
    await waitFor('the failed deliveries', async () => ((await list('&status=failed')).total === 3 ? true : undefined));
    const created = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'reader' }));
    viewerAuth = bearer((await created.json()) as { api_key: string; api_secret: string });
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  test('lists every webhook’s deliveries, newest first, filtered by status, webhook and time, in pages', async () => {
    const all = await list('&per_page=4');
    assert.equal(all.total, 6);
    assert.equal(all.pages, 2);
    assert.equal(all.items.length, 4);
    const second = await list('&per_page=4&page=2');
    assert.equal(second.items.length, 2);
    const ids = [...all.items, ...second.items].map((d) => d.delivery_id);
    assert.equal(new Set(ids).size, 6, 'no delivery on two pages');
    const created = [...all.items, ...second.items].map((d) => d.created_on);
    assert.deepEqual(created, [...created].sort().reverse(), 'newest first');

    const failed = await list('&status=failed');
    assert.equal(failed.total, 3);
    assert.ok(failed.items.every((d) => d.webhook_uuid === failing.uuid && d.status === 'failed'));
    assert.equal((await list('&status=pending')).total, 0);
    const ofHealthy = await list(`&webhook_uuid=${healthy.uuid}`);
    assert.equal(ofHealthy.total, 3);
    assert.ok(ofHealthy.items.every((d) => d.status === 'delivered' && d.attempts[0]?.request_body));
    assert.equal((await list(`&since=${encodeURIComponent(before1)}`)).total, 6);
    assert.equal((await list('&since=2999-01-01T00:00:00Z')).total, 0);
    assert.equal((await list('&page=9')).items.length, 0);
  });

  test('answers 400 to a since that is not a time, and 403 to another organization', async () => {
    const bad = await server.request(`/api/webhooks/deliveries?organization_uuid=${org()}&since=yesterday`);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /ISO 8601/);
    const other = await server.request('/api/webhooks/deliveries?organization_uuid=someone-else');
    assert.equal(other.status, 403);
  });

  test('a viewer may list but not redeliver', async () => {
    const read = await server.request(`/api/webhooks/deliveries?organization_uuid=${org()}`, { headers: { authorization: viewerAuth } });
    assert.equal(read.status, 200);
    const write = await server.request('/api/webhooks/deliveries/redeliver', {
      ...jsonBody({ organization_uuid: org(), failed: true }),
      headers: { authorization: viewerAuth, 'content-type': 'application/json' },
    });
    assert.equal(write.status, 403);
  });

  test('redelivers only what is sendable, and really sends it again to the receiver', async () => {
    const redeliver = async (body: Record<string, unknown>) => {
      const res = await server.request('/api/webhooks/deliveries/redeliver', jsonBody({ organization_uuid: org(), failed: true, ...body }));
      assert.equal(res.status, 202, await res.clone().text());
      return (await res.json()) as BulkRedeliverResult;
    };
    const refused = await server.request('/api/webhooks/deliveries/redeliver', jsonBody({ organization_uuid: org() }));
    assert.equal(refused.status, 400, 'failed: true is required');

    // The webhook is inactive: its failed deliveries are skipped, not sent.
    const skipped = await redeliver({});
    assert.deepEqual({ ...skipped, delivery_ids: [] }, { redelivered: 0, delivery_ids: [], skipped: 3, remaining: 0, cap: 1000 });
    assert.equal((await redeliver({ since: '2999-01-01T00:00:00Z' })).skipped, 0);

    await patch(failing.uuid, { is_active: true });
    down = false;
    const sentBefore = receiver.received.filter((r) => r.path === '/app').length;
    const result = await redeliver({ webhook_uuid: failing.uuid, since: before1 });
    assert.equal(result.redelivered, 3);
    assert.equal(result.skipped, 0);
    assert.equal(result.remaining, 0);
    const failedIds = (await list(`&webhook_uuid=${failing.uuid}`)).items.map((d) => d.delivery_id).sort();
    assert.deepEqual([...result.delivery_ids].sort(), failedIds);

    const delivered = await waitFor('the redelivered deliveries', async () => {
      const page = await list(`&webhook_uuid=${failing.uuid}&status=delivered`);
      return page.total === 3 ? page.items : undefined;
    });
    for (const delivery of delivered) {
      const last = delivery.attempts.at(-1);
      assert.equal(last?.status_code, 200);
      assert.equal(last?.attempt, delivery.attempts.length, 'the next attempt number');
    }
    const resent = receiver.received.filter((r) => r.path === '/app').slice(sentBefore);
    assert.equal(resent.length, 3);
    assert.deepEqual(resent.map((r) => String(r.headers['x-sandbox-delivery-id'])).sort(), failedIds, 'the same delivery ids');
    assert.equal((await redeliver({})).redelivered, 0, 'nothing failed is left');
  });
});
