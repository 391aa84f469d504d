import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Webhook, WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import { createInbox, startCaptureServer, type CaptureServer, type CapturedRequest } from '../support/inboxes.ts';
import { headerValue, readAsReference, TRANSPORT_HEADERS } from '../support/reference-receiver.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { newestDeliveryWhen, registerWebhook, simulateCheckIn } from '../support/webhooks.ts';
import { waitFor } from './support.ts';

const SERVICE_HEADERS = ['content-type', 'x-service-signature'];
const SANDBOX_HEADERS = ['x-sandbox-event', 'x-sandbox-delivery-id', 'x-sandbox-attempt'];

const namesOf = (request: CapturedRequest) => readAsReference(request).headerNames;
const sorted = (names: string[]) => [...names].sort();

describe('deliveries as a receiver written from the service reference sees them', () => {
  let server: TestServer;
  let app: CaptureServer;

  before(async () => {
    server = await startTestServer({ webhookRetrySchedule: 'fast' });
    app = await startCaptureServer();
  });
  after(async () => {
    await server.stop();
    await app.close();
  });

  const arrival = (path: string, since: number) =>
    waitFor(`a request to ${path}`, () => app.requests.slice(since).find((r) => r.url === path));

  async function nextRequest(path: string, send: () => Promise<void>): Promise<CapturedRequest> {
    const since = app.requests.length;
    await send();
    return arrival(path, since);
  }

  it('by default: POST, Content-Type, X-Service-Signature and HTTP headers only; decrypts with the key from the signature and verifies', async () => {
    const webhook = await registerWebhook(server, `${app.url}/default`);
    assert.equal('sandbox_diagnostics' in webhook, false, 'the registration answer is the service webhook object');
    const request = await nextRequest('/default', () => simulateCheckIn(server));

    const reading = readAsReference(request, webhook.secret);
    assert.equal(reading.verified, true);
    assert.equal(reading.envelope.type, 'service_confirmation.check_in');
    assert.match(reading.envelope.id, /^evt_[0-9a-f-]{36}$/);
    const unexpected = reading.headerNames.filter((name) => !SERVICE_HEADERS.includes(name) && !TRANSPORT_HEADERS.includes(name));
    assert.deepEqual(unexpected, [], 'no header the service does not send');
    for (const name of SERVICE_HEADERS) assert.ok(reading.headerNames.includes(name), `${name} is sent`);
    assert.equal(headerValue(request, 'user-agent')?.startsWith('QR-Sandbox-Webhooks/'), true);

    const read = (await (await server.request(`/api/webhooks/uuid/${webhook.uuid}`)).json()) as Webhook;
    assert.equal(read.sandbox_diagnostics, false);
  });

  it('with sandbox_diagnostics: the X-Sandbox-* headers too, true to the delivery log; PATCH switches them off again', async () => {
    const webhook: WebhookWithSecret = await registerWebhook(server, `${app.url}/diagnostics`, { sandbox_diagnostics: true });
    const request = await nextRequest('/diagnostics', () => simulateCheckIn(server));
    const reading = readAsReference(request, webhook.secret);
    assert.equal(reading.verified, true);
    assert.deepEqual(
      sorted(reading.headerNames.filter((name) => !TRANSPORT_HEADERS.includes(name))),
      sorted([...SERVICE_HEADERS, ...SANDBOX_HEADERS]),
    );
    const delivery = await newestDeliveryWhen(server, webhook.uuid, 'the delivery', (d) => d.status === 'delivered');
    assert.equal(headerValue(request, 'x-sandbox-event'), reading.envelope.type);
    assert.equal(headerValue(request, 'x-sandbox-delivery-id'), delivery.delivery_id);
    assert.equal(headerValue(request, 'x-sandbox-attempt'), '1');

    const patched = await server.request(`/api/webhooks/uuid/${webhook.uuid}`, jsonBody({ sandbox_diagnostics: false }, 'PATCH'));
    assert.equal(patched.status, 200);
    assert.equal(((await patched.json()) as Webhook).sandbox_diagnostics, false);
    const after = await nextRequest('/diagnostics', () => simulateCheckIn(server));
    assert.deepEqual(
      namesOf(after).filter((name) => name.startsWith('x-sandbox-')),
      [],
    );
  });

  it('a request forwarded by an inbox carries the headers of a direct delivery, plus only the sandbox hop count', async () => {
    const direct = await registerWebhook(server, `${app.url}/direct`);
    const inbox = await createInbox(server, { name: 'forwarding', forward_to: `${app.url}/forwarded` });
    const viaInbox = await registerWebhook(server, inbox.url);
    const since = app.requests.length;
    await simulateCheckIn(server);
    const directRequest = await arrival('/direct', since);
    const forwarded = await arrival('/forwarded', since);
    assert.deepEqual(sorted(namesOf(forwarded)), sorted([...namesOf(directRequest), 'x-qr-sandbox-forwarded']));
    assert.equal(readAsReference(forwarded, viaInbox.secret).verified, true);
    assert.equal(readAsReference(directRequest, direct.secret).verified, true);
  });

  it('the inbox knows the attempt of a delivery without any sandbox header, from its own records', async () => {
    const inbox = await createInbox(server, { name: 'fails once', rules: [{ match: { attempt: 1 }, respond: { status: 503 } }] });
    const webhook = await registerWebhook(server, inbox.url);
    await simulateCheckIn(server);
    const delivery = await newestDeliveryWhen(server, webhook.uuid, 'attempt 2 to succeed', (d) => d.status === 'delivered');
    assert.deepEqual(
      delivery.attempts.map((a) => [a.attempt, a.status_code]),
      [
        [1, 503],
        [2, 200],
      ],
    );
    assert.ok(
      delivery.attempts.every((a) => a.inbox_message_uuid !== null),
      'each attempt links to its inspector message',
    );
  });
});
