import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { logFile } from '../../server/logger.ts';
import type { Delivery, Webhook } from '../../server/webhooks/schemas.ts';
import { createInbox, patchInbox } from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { serverSentEvents } from '../support/sse.ts';
import { registerWebhook, simulateCheckIn } from '../support/webhooks.ts';
import { suiteServer } from '../support/suite-server.ts';
import { waitFor } from './support.ts';

async function getWebhook(server: TestServer, uuid: string): Promise<Webhook> {
  const res = await server.request(`/api/webhooks/uuid/${uuid}?organization_uuid=${server.organizationUuid}`);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Webhook;
}

async function patchWebhook(server: TestServer, uuid: string, body: Record<string, unknown>): Promise<Response> {
  return server.request(`/api/webhooks/uuid/${uuid}?organization_uuid=${server.organizationUuid}`, jsonBody(body, 'PATCH'));
}

async function deliveries(server: TestServer, webhookUuid: string): Promise<Delivery[]> {
  const res = await server.request(`/api/webhooks/uuid/${webhookUuid}/deliveries?organization_uuid=${server.organizationUuid}`);
  return ((await res.json()) as { items: Delivery[] }).items;
}

/** Live events of the organization, from now on, collected until stop(). */
async function liveEvents(server: TestServer) {
  const controller = new AbortController();
  const res = await server.request('/api/live', { signal: controller.signal });
  assert.equal(res.status, 200);
  assert.ok(res.body);
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const reading = (async () => {
    try {
      for await (const { event, data } of serverSentEvents(res.body as ReadableStream<Uint8Array>)) {
        if (event && data) events.push(JSON.parse(data) as { type: string; data: Record<string, unknown> });
      }
    } catch {
      // aborted
    }
  })();
  return {
    find: (type: string, webhookUuid: string) =>
      waitFor(`a ${type} live event`, () => events.find((e) => e.type === type && e.data.webhook_uuid === webhookUuid)),
    async stop() {
      controller.abort();
      await reading;
    },
  };
}

function logLines(server: TestServer, text: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(logFile(server.dataDir), 'utf8')
    .split('\n')
    .filter((l) => l.includes(text))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('webhook retry schedules, exhausted deliveries and auto-disable', () => {
  // The standard schedule waits 5 s before a retry: a test that sees 3 attempts at once shows the webhook's own schedule is used.
  const server = suiteServer(() => startTestServer({ webhookRetrySchedule: 'standard' }));

  it("gives up after the webhook's own schedule, says so live and in the log", async () => {
    const inbox = await createInbox(server, { name: 'always 500', rules: [{ respond: { status: 500 } }] });
    const live = await liveEvents(server);
    const webhook = await registerWebhook(server, inbox.url, { retry_schedule: [10, 20] });
    assert.equal(webhook.retry_schedule, undefined, 'the registration answer keeps to the fields of the service contract');
    assert.deepEqual((await getWebhook(server, webhook.uuid)).retry_schedule, [10, 20]);
    await simulateCheckIn(server);
    const failed = await waitFor('the delivery to fail', async () => {
      const [delivery] = await deliveries(server, webhook.uuid);
      return delivery?.status === 'failed' ? delivery : undefined;
    });
    assert.equal(failed.attempts.length, 3);
    assert.match(failed.status_reason ?? '', /Gave up after 3 attempts \(the webhook's own schedule allows 3\)/);
    const notice = await live.find('delivery.exhausted', webhook.uuid);
    await live.stop();
    assert.equal(notice.data.delivery_id, failed.delivery_id);
    assert.equal(notice.data.attempts, 3);
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = logLines(server, failed.delivery_id).filter((l) => l.msg === 'webhook delivery failed: its retries are used up');
    assert.equal(line?.webhook_uuid, webhook.uuid);
    assert.equal(line?.level, 40, 'a warning');
  });

  it('shows, changes and validates the schedule; null follows the organization again', async () => {
    const { uuid } = await registerWebhook(server, 'http://127.0.0.1:9/hook');
    const webhook = await getWebhook(server, uuid);
    assert.equal(webhook.retry_schedule, null);
    assert.equal(webhook.failing_since, null);
    assert.equal(webhook.disabled_reason, null);
    assert.equal(webhook.disabled_on, null);
    assert.equal(((await (await patchWebhook(server, webhook.uuid, { retry_schedule: 'fast' })).json()) as Webhook).retry_schedule, 'fast');
    assert.equal((await getWebhook(server, webhook.uuid)).retry_schedule, 'fast');
    assert.equal(((await (await patchWebhook(server, webhook.uuid, { retry_schedule: null })).json()) as Webhook).retry_schedule, null);
    const bad: Array<[unknown, RegExp]> = [
      [Array.from({ length: 21 }, () => 1000), /retry_schedule/],
      [[86_400_001], /retry_schedule/],
      [[], /retry_schedule/],
      ['slow', /retry_schedule/],
      [[-1], /retry_schedule/],
    ];
    for (const [schedule, message] of bad) {
      const res = await patchWebhook(server, webhook.uuid, { retry_schedule: schedule });
      assert.equal(res.status, 400, JSON.stringify(schedule));
      const body = (await res.json()) as { error: { message: string; details: Array<{ path: string }> } };
      assert.match(body.error.message, message);
      assert.ok(body.error.details.some((d) => d.path.startsWith('body.retry_schedule')));
    }
    const longest = await patchWebhook(server, webhook.uuid, { retry_schedule: Array.from({ length: 20 }, () => 86_400_000) });
    assert.equal(longest.status, 200);
  });

  it('disables a webhook failing for longer than the setting, stops its deliveries, and re-enables it', async () => {
    const settings = await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: 1 }, 'PATCH'));
    assert.equal(settings.status, 200, await settings.clone().text());
    assert.equal(((await settings.json()) as { webhook_auto_disable_after_s: number }).webhook_auto_disable_after_s, 1);
    try {
      const inbox = await createInbox(server, { name: 'down', rules: [{ respond: { status: 503 } }] });
      const live = await liveEvents(server);
      const webhook = await registerWebhook(server, inbox.url, { retry_schedule: Array.from({ length: 20 }, () => 300) });
      await simulateCheckIn(server);
      const disabled = await waitFor('the webhook to be disabled', async () => {
        const current = await getWebhook(server, webhook.uuid);
        return current.is_active ? undefined : current;
      });
      assert.match(disabled.disabled_reason ?? '', /^Disabled automatically: every delivery attempt failed for 1 s/);
      assert.ok(disabled.disabled_on);
      assert.ok(disabled.failing_since);
      const [delivery] = await deliveries(server, webhook.uuid);
      assert.equal(delivery?.status, 'failed');
      assert.match(delivery?.status_reason ?? '', /disabled automatically/);
      assert.ok((delivery?.attempts.length ?? 0) < 21, 'stopped before its schedule ran out');
      const notice = await live.find('webhook.disabled', webhook.uuid);
      await live.stop();
      assert.equal(notice.data.disabled_reason, disabled.disabled_reason);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(logLines(server, 'webhook disabled automatically').filter((l) => l.webhook_uuid === webhook.uuid).length, 1);

      await patchInbox(server, inbox.uuid, { rules: [] });
      const enabled = (await (await patchWebhook(server, webhook.uuid, { is_active: true })).json()) as Webhook;
      assert.equal(enabled.is_active, true);
      assert.equal(enabled.disabled_reason, null);
      assert.equal(enabled.disabled_on, null);
      assert.equal(enabled.failing_since, null);
      await simulateCheckIn(server);
      const delivered = await waitFor('a delivery after re-enabling', async () => {
        const items = await deliveries(server, webhook.uuid);
        return items.find((d) => d.status === 'delivered');
      });
      assert.equal(delivered.attempts[0]?.status_code, 200);
    } finally {
      await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: null }, 'PATCH'));
    }
  });

  it('keeps a failing streak going until a success ends it, and never disables with the setting at 0', async () => {
    const settings = await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: 0 }, 'PATCH'));
    assert.equal(settings.status, 200);
    try {
      const inbox = await createInbox(server, { name: 'flaky', rules: [{ match: { attempt_at_most: 3 }, respond: { status: 502 } }] });
      const webhook = await registerWebhook(server, inbox.url, { retry_schedule: [400, 400, 400] });
      await simulateCheckIn(server);
      const failing = await waitFor('a failing streak', async () => (await getWebhook(server, webhook.uuid)).failing_since ?? undefined);
      const delivered = await waitFor('the delivery', async () =>
        (await deliveries(server, webhook.uuid)).find((d) => d.status === 'delivered'),
      );
      assert.equal(delivered.attempts.length, 4);
      const after = await getWebhook(server, webhook.uuid);
      assert.equal(after.is_active, true);
      assert.equal(after.failing_since, null, `the streak since ${failing} ended`);
    } finally {
      await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: null }, 'PATCH'));
    }
  });

  it('rejects an auto-disable time out of range', async () => {
    for (const value of [-1, 1.5, 90 * 86400 + 1, '60']) {
      const res = await server.request('/api/settings', jsonBody({ webhook_auto_disable_after_s: value }, 'PATCH'));
      assert.equal(res.status, 400, String(value));
    }
    const defaults = (await (await server.request('/api/settings')).json()) as { webhook_auto_disable_after_s: number };
    assert.equal(defaults.webhook_auto_disable_after_s, 86400);
  });
});
