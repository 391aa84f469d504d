import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Delivery, WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import { createInbox, listMessages, patchInbox, type InboxView, type MessageView } from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';
import { suiteServer } from '../support/suite-server.ts';

const SENDER_TIMEOUT_MS = 2000;

async function register(server: TestServer, url: string, events = ['service_confirmation.check_in']): Promise<WebhookWithSecret> {
  const res = await server.request('/api/webhooks/register', jsonBody({ organization_uuid: server.organizationUuid, url, events }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as WebhookWithSecret;
}

async function simulate(server: TestServer, event = 'service_confirmation.check_in') {
  const res = await server.request('/api/service-confirmations/simulate', jsonBody({ organization_uuid: server.organizationUuid, event }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { event: { id: string; type: string }; deliveries: Array<{ delivery_id: string; webhook_uuid: string }> };
}

/** The sender's own log of the webhook's one delivery. */
async function deliveryLog(server: TestServer, webhookUuid: string): Promise<Delivery | undefined> {
  const res = await server.request(`/api/webhooks/uuid/${webhookUuid}/deliveries?organization_uuid=${server.organizationUuid}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { items: Delivery[] }).items[0];
}

function attemptsSeen(server: TestServer, webhookUuid: string, count: number): Promise<Delivery> {
  return waitFor(`${count} attempt(s) in the delivery log`, async () => {
    const delivery = await deliveryLog(server, webhookUuid);
    return delivery && delivery.attempts.length >= count ? delivery : undefined;
  });
}

function delivered(server: TestServer, webhookUuid: string): Promise<Delivery> {
  return waitFor('the delivery to succeed', async () => {
    const delivery = await deliveryLog(server, webhookUuid);
    return delivery?.status === 'delivered' ? delivery : undefined;
  });
}

function messagesSeen(
  server: TestServer,
  inbox: InboxView,
  count: number,
  check: (m: MessageView[]) => boolean = () => true,
): Promise<MessageView[]> {
  return waitFor(`${count} message(s) in the inbox`, async () => {
    const page = await listMessages(server, inbox.uuid, 'per_page=100');
    return page.items.length >= count && check(page.items) ? page.items.reverse() : undefined;
  });
}

describe("inboxes receiving this app's own webhook deliveries", () => {
  const server = suiteServer(() => startTestServer({ webhookRetrySchedule: 'fast', webhookTimeoutMs: SENDER_TIMEOUT_MS }));

  it('decrypts a delivery of a webhook registered here and verifies it with that webhook secret, unasked', async () => {
    const inbox = await createInbox(server, { name: 'app webhook' });
    assert.equal(inbox.secret_count, 0);
    const webhook = await register(server, inbox.url);
    const { event, deliveries } = await simulate(server);
    const log = await delivered(server, webhook.uuid);
    assert.equal(log.attempts[0]?.status_code, 200);
    assert.match(log.attempts[0]?.response_excerpt ?? '', /"received":true/);

    const [message] = await messagesSeen(server, inbox, 1);
    assert.ok(message);
    assert.equal(message.decrypted, true);
    assert.equal(message.signature_status, 'valid');
    assert.equal(message.verified_with, `webhook ${webhook.uuid}`);
    assert.equal(message.event_id, event.id);
    assert.equal(message.event_type, 'service_confirmation.check_in');
    assert.equal(message.delivery_id, deliveries[0]?.delivery_id);
    assert.equal(message.attempt, 1, 'known from the sandbox records of what it sent');
    assert.deepEqual(
      Object.keys(message.headers).filter((name) => name.startsWith('x-')),
      ['x-service-signature'],
      'no header the service does not send',
    );
    assert.equal((message.envelope as { id: string }).id, event.id);
    assert.equal(message.answer.kind, 'ok');
  });

  it('answers with the chosen status: the sender logs 503 and retries; the retry is flagged a duplicate', async () => {
    const inbox = await createInbox(server, { name: '503', response: { status: 503 } });
    const webhook = await register(server, inbox.url);
    await simulate(server);
    const failing = await attemptsSeen(server, webhook.uuid, 1);
    assert.equal(failing.attempts[0]?.status_code, 503);
    assert.match(failing.attempts[0]?.error ?? '', /503/);
    assert.match(failing.attempts[0]?.response_excerpt ?? '', /"fault_injection":true/);
    const [first] = await messagesSeen(server, inbox, 1);
    assert.equal(first?.answer.kind, 'fault_status');
    assert.equal(first?.answer.status, 503);
    assert.equal(first?.signature_status, 'valid', 'verdicts are made whatever the answer');

    await patchInbox(server, inbox.uuid, { response: { status: null } });
    const log = await delivered(server, webhook.uuid);
    const last = log.attempts.at(-1);
    assert.equal(last?.status_code, 200);
    const messages = await messagesSeen(server, inbox, log.attempts.length);
    const retry = messages.at(-1);
    assert.equal(retry?.duplicate_of, first?.uuid);
    assert.equal(retry?.duplicate_by, 'delivery_id');
    assert.equal(retry?.attempt, log.attempts.length);
  });

  it('answers after a delay: below the sender timeout it is delivered; above, the sender logs a timeout', async () => {
    const slowOk = await createInbox(server, { name: 'slow', response: { delay_ms: 300 } });
    const okHook = await register(server, slowOk.url);
    await simulate(server);
    const log = await delivered(server, okHook.uuid);
    assert.equal(log.attempts.length, 1);
    assert.ok((log.attempts[0]?.duration_ms ?? 0) >= 300, 'the sender waited for the delayed answer');
    const [okMessage] = await messagesSeen(server, slowOk, 1, (m) => m[0]?.answer.kind !== null);
    assert.ok((okMessage?.answer.after_ms ?? 0) >= 300);

    const tooSlow = await createInbox(server, { name: 'too slow', response: { delay_ms: SENDER_TIMEOUT_MS * 3 } });
    const slowHook = await register(server, tooSlow.url);
    await simulate(server);
    const timedOut = await attemptsSeen(server, slowHook.uuid, 1);
    assert.equal(timedOut.attempts[0]?.status_code, null);
    assert.match(timedOut.attempts[0]?.error ?? '', /timeout/i);
    const [gone] = await messagesSeen(server, tooSlow, 1, (m) => m[0]?.answer.kind !== null);
    assert.equal(gone?.answer.kind, 'client_gone', 'the inbox saw the sender hang up');
    assert.equal(gone?.decrypted, true);

    await patchInbox(server, tooSlow.uuid, { response: { delay_ms: 0 } });
    await delivered(server, slowHook.uuid);
  });

  it('drops the connection: the sender logs a network error without a status', async () => {
    const inbox = await createInbox(server, { name: 'drop', response: { drop: true } });
    const webhook = await register(server, inbox.url);
    await simulate(server);
    const dropped = await attemptsSeen(server, webhook.uuid, 1);
    assert.equal(dropped.attempts[0]?.status_code, null);
    assert.ok(dropped.attempts[0]?.error, 'the attempt names the failure');
    assert.doesNotMatch(dropped.attempts[0]?.error ?? '', /timeout/i);
    const [message] = await messagesSeen(server, inbox, 1, (m) => m[0]?.answer.kind !== null);
    assert.equal(message?.answer.kind, 'dropped');
    assert.equal(message?.signature_status, 'valid');

    await patchInbox(server, inbox.uuid, { response: { drop: false } });
    const log = await delivered(server, webhook.uuid);
    assert.ok(log.attempts.length >= 2);
  });

  it("tries the registered webhook's secret besides the inbox's own; a replay elsewhere with a wrong secret is invalid", async () => {
    const inbox = await createInbox(server, { name: 'own secret', secrets: ['not-this-one'] });
    const webhook = await register(server, inbox.url);
    await simulate(server);
    await delivered(server, webhook.uuid);
    const [message] = await messagesSeen(server, inbox, 1);
    assert.equal(message?.signature_status, 'valid');
    assert.equal(message?.verified_with, `webhook ${webhook.uuid}`);

    const other = await createInbox(server, { name: 'not registered', secrets: ['wrong-secret'] });
    const res = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}/messages/${message?.uuid ?? ''}/replay`,
      jsonBody({ url: other.url }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const [replayed] = await messagesSeen(server, other, 1);
    assert.equal(replayed?.decrypted, true);
    assert.equal(replayed?.signature_status, 'invalid', 'no webhook points at this inbox and its own secret is wrong');
  });
});
