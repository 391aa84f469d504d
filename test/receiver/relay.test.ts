import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { craft, deliveryHeaders, envelope, SECRET } from '../support/deliveries.ts';
import { createInbox, deliver, getMessage, startCaptureServer, type CaptureServer, type MessageView } from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

/** Sends exact bytes with exact headers, names in their case (fetch would add headers of its own). */
function rawPost(url: string, body: Buffer, headers: Array<[string, string]>): Promise<{ status: number; messageUuid: string }> {
  return new Promise((resolve, reject) => {
    const object = Object.fromEntries([...headers, ['Content-Length', String(body.length)]]);
    const req = http.request(url, { method: 'POST', headers: object }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, messageUuid: String(res.headers['x-inbox-message-uuid']) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function pairs(rawHeaders: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) out.push([rawHeaders[i] ?? '', rawHeaders[i + 1] ?? '']);
  return out;
}

type Relay = MessageView['relays'][number];

describe('forward-to and replay', () => {
  let server: TestServer;
  let app: CaptureServer;
  before(async () => {
    server = await startTestServer();
    app = await startCaptureServer((req, res) => {
      if (req.url.startsWith('/redirect')) {
        res.writeHead(302, { location: `/elsewhere` });
        res.end();
      } else if (req.url.startsWith('/fail')) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('your app broke');
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-app': 'mine' });
        res.end(JSON.stringify({ ok: true, got: req.body.length }));
      }
    });
  });
  after(async () => {
    await server.stop();
    await app.close();
  });

  it('relays every message to forward_to byte for byte with its headers, and logs the app answer', async () => {
    const inbox = await createInbox(server, { name: 'forwarding', secrets: [SECRET], forward_to: `${app.url}/hooks?from=inbox` });
    const d = craft(envelope());
    const body = Buffer.from(d.body.replace('{"payload":', '{ "payload" :  '), 'utf8');
    const sent: Array<[string, string]> = [
      ['Content-Type', 'application/json'],
      ['X-Service-Signature', d.signatureHeader],
      ['X-Sandbox-Delivery-Id', 'dlv_fwd_1'],
      ['X-Custom-Thing', 'Keep   spacing'],
      ['User-Agent', 'partner-sender/1.0'],
    ];
    const answer = await rawPost(inbox.url, body, sent);
    assert.equal(answer.status, 200);

    const [forwarded] = await app.waitFor(1);
    assert.ok(forwarded);
    assert.equal(forwarded.method, 'POST');
    assert.equal(forwarded.url, '/hooks?from=inbox');
    assert.deepEqual(forwarded.body, body, 'the body arrives byte for byte');
    const arrived = pairs(forwarded.rawHeaders);
    for (const [name, value] of sent) {
      const match = arrived.find(([n]) => n.toLowerCase() === name.toLowerCase());
      assert.equal(match?.[1], value, `header ${name} unchanged`);
    }
    assert.equal(arrived.find(([n]) => n.toLowerCase() === 'content-length')?.[1], String(body.length));

    const message = await waitFor('the forward to be logged', async () => {
      const m = await getMessage(server, inbox.uuid, answer.messageUuid);
      return m.relays[0]?.status_code ? m : undefined;
    });
    const relay = message.relays[0];
    assert.equal(relay?.kind, 'forward');
    assert.equal(relay?.url, `${app.url}/hooks?from=inbox`);
    assert.equal(relay?.status_code, 200);
    assert.equal(relay?.response_excerpt, JSON.stringify({ ok: true, got: body.length }));
    assert.equal((relay as Relay & { response_headers: Record<string, string> }).response_headers['x-app'], 'mine');
  });

  it('forwards garbage too, as it came', async () => {
    const inbox = await createInbox(server, { name: 'garbage forward', forward_to: `${app.url}/garbage` });
    const before = app.requests.length;
    const bytes = Buffer.from([0x00, 0xff, 0x10, 0x80]);
    const answer = await rawPost(inbox.url, bytes, [['Content-Type', 'application/octet-stream']]);
    assert.equal(answer.status, 400);
    const requests = await app.waitFor(before + 1);
    const forwarded = requests.find((r) => r.url === '/garbage');
    assert.deepEqual(forwarded?.body, bytes);
  });

  it('replays a stored message to any URL and answers with what that URL said', async () => {
    const inbox = await createInbox(server, { name: 'replay' });
    const d = craft(envelope());
    const original = await deliver(inbox.url, d.body, deliveryHeaders(d, { 'x-sandbox-delivery-id': 'dlv_replay' }));
    const before = app.requests.length;

    const res = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}/messages/${original.messageUuid}/replay`,
      jsonBody({ url: `${app.url}/replayed` }),
    );
    assert.equal(res.status, 200);
    const relay = (await res.json()) as Relay;
    assert.equal(relay.kind, 'replay');
    assert.equal(relay.status_code, 200);
    assert.ok(relay.duration_ms !== null && relay.duration_ms >= 0);
    const replayed = (await app.waitFor(before + 1)).find((r) => r.url === '/replayed');
    assert.equal(replayed?.body.toString('utf8'), d.body);
    assert.equal(pairs(replayed?.rawHeaders ?? []).find(([n]) => n.toLowerCase() === 'x-service-signature')?.[1], d.signatureHeader);

    const failing = (await (
      await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages/${original.messageUuid}/replay`, jsonBody({ url: `${app.url}/fail` }))
    ).json()) as Relay;
    assert.equal(failing.status_code, 500);
    assert.equal(failing.response_excerpt, 'your app broke');

    const redirected = (await (
      await server.request(
        `/api/inboxes/uuid/${inbox.uuid}/messages/${original.messageUuid}/replay`,
        jsonBody({ url: `${app.url}/redirect` }),
      )
    ).json()) as Relay;
    assert.equal(redirected.status_code, 302, 'redirects are not followed');
    assert.ok(!app.requests.some((r) => r.url === '/elsewhere'));

    const message = await getMessage(server, inbox.uuid, original.messageUuid);
    assert.deepEqual(
      message.relays.map((r) => r.status_code),
      [200, 500, 302],
    );
  });

  it('logs a refused connection instead of failing, and refuses bad targets with 400', async () => {
    const inbox = await createInbox(server, { name: 'replay errors' });
    const answer = await deliver(inbox.url, '{}', { 'content-type': 'application/json' });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const path = `/api/inboxes/uuid/${inbox.uuid}/messages/${answer.messageUuid}/replay`;
    const refused = await server.request(path, jsonBody({ url: `http://127.0.0.1:${deadPort}/x` }));
    assert.equal(refused.status, 200);
    const relay = (await refused.json()) as Relay;
    assert.equal(relay.status_code, null);
    assert.match(relay.error ?? '', /ECONNREFUSED|refused/);

    for (const body of [{}, { url: 'http://example.com/hook' }, { url: 'not a url' }]) {
      const res = await server.request(path, jsonBody(body));
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(JSON.stringify(await res.json()), /body\.url/);
    }
    const unknown = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}/messages/00000000-0000-4000-8000-000000000000/replay`,
      jsonBody({ url: `${app.url}/x` }),
    );
    assert.equal(unknown.status, 404);
  });
});
