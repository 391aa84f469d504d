import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { newestDeliveryWhen, registerWebhook, simulateCheckIn } from '../support/webhooks.ts';
import { startReceiver } from './support.ts';

describe('the time limit of a delivery attempt is an organization setting (webhook_timeout_s)', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    server = await startTestServer({ webhookRetrySchedule: 'fast' });
    receiver = await startReceiver(() => ({ status: 200, delayMs: 10_000 }));
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  const patch = (body: unknown) => server.request('/api/settings', jsonBody(body, 'PATCH'));

  it('defaults to 15 s, refuses a value out of range naming the limits, and applies the chosen one to the next attempt', async () => {
    const read = (await (await server.request('/api/settings')).json()) as { webhook_timeout_s: number };
    assert.equal(read.webhook_timeout_s, 15);
    const refused = await patch({ webhook_timeout_s: 0 });
    assert.equal(refused.status, 400);
    const error = ((await refused.json()) as { error: { message: string; details: { path: string; message: string }[] } }).error;
    assert.equal(error.details[0]?.path, 'body.webhook_timeout_s');
    assert.match(error.details[0]?.message ?? '', />=1/);

    const saved = await patch({ webhook_timeout_s: 1 });
    assert.equal(saved.status, 200);
    assert.equal(((await saved.json()) as { webhook_timeout_s: number }).webhook_timeout_s, 1);
    const webhook = await registerWebhook(server, `${receiver.url}/slow`);
    await simulateCheckIn(server);
    const delivery = await newestDeliveryWhen(server, webhook.uuid, 'the first attempt to time out', (d) => d.attempts.length > 0);
    assert.equal(delivery.attempts[0]?.error, 'No complete answer within 1 s (timeout).');

    assert.equal(((await (await patch({ webhook_timeout_s: null })).json()) as { webhook_timeout_s: number }).webhook_timeout_s, 15);
  });
});
