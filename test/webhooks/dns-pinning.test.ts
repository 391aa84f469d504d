import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Delivery, WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import type { HostResolver, ResolvedAddress } from '../../server/webhooks/pinned-fetch.ts';
import { createInbox, deliver, getMessage } from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from './support.ts';

interface Hit {
  listener: string;
  path: string;
  host: string | undefined;
}

/** Answers per name in turn, the last one from then on; records every question. */
function scriptedResolver(script: Record<string, string[]>) {
  const asked: string[] = [];
  const resolver: HostResolver = async (hostname) => {
    asked.push(hostname);
    const answers = script[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const index = Math.min(asked.filter((h) => h === hostname).length - 1, answers.length - 1);
    const address = answers[index] ?? '';
    return [{ address, family: address.includes(':') ? 6 : 4 } satisfies ResolvedAddress];
  };
  return { resolver, asked: (name: string) => asked.filter((h) => h === name).length };
}

/** The same port on two loopback addresses, so where a request landed shows which address was used. */
async function twoListeners(): Promise<{ port: number; hits: Hit[]; close(): Promise<void> }> {
  const hits: Hit[] = [];
  const make = (listener: string) =>
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits.push({ listener, path: req.url ?? '', host: req.headers.host });
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`answered by ${listener}`);
      });
    });
  const checked = make('127.0.0.1');
  await new Promise<void>((resolve) => checked.listen(0, '127.0.0.1', resolve));
  const port = (checked.address() as AddressInfo).port;
  const other = make('127.0.0.2');
  await new Promise<void>((resolve, reject) => {
    other.once('error', reject);
    other.listen(port, '127.0.0.2', resolve);
  });
  return {
    port,
    hits,
    async close() {
      for (const server of [checked, other]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

describe('outgoing requests connect only to the address they checked (resolve once, pinned)', () => {
  let server: TestServer;
  let listeners: Awaited<ReturnType<typeof twoListeners>>;
  let dns: ReturnType<typeof scriptedResolver>;

  before(async () => {
    listeners = await twoListeners();
    // Each name first resolves to the checked address; asked again it would give another one.
    dns = scriptedResolver({
      'hook.localhost': ['127.0.0.1', '127.0.0.2'],
      'hook-meta.localhost': ['127.0.0.1', '169.254.169.254'],
      'replay.localhost': ['127.0.0.1', '127.0.0.2'],
      'forward.localhost': ['127.0.0.1', '127.0.0.1', '127.0.0.2'],
      'metadata-alias.localhost': ['169.254.169.254'],
      'alias-of-this-server.test': ['127.0.0.1'],
    });
    server = await startTestServer({ webhookRetrySchedule: 'fast', webhookTimeoutMs: 5000, hostResolver: dns.resolver });
  });
  after(async () => {
    await server.stop();
    await listeners.close();
  });

  async function deliverWebhookTo(name: string): Promise<Delivery> {
    const registered = await server.request(
      '/api/webhooks/register',
      jsonBody({
        organization_uuid: server.organizationUuid,
        url: `http://${name}:${listeners.port}/hook`,
        events: ['service_confirmation.check_in'],
      }),
    );
    assert.equal(registered.status, 201, await registered.clone().text());
    const webhook = (await registered.json()) as WebhookWithSecret;
    const simulated = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
    );
    assert.equal(simulated.status, 201);
    const delivery = await waitFor('the delivery', async () => {
      const res = await server.request(`/api/webhooks/uuid/${webhook.uuid}/deliveries?organization_uuid=${server.organizationUuid}`);
      const [first] = ((await res.json()) as { items: Delivery[] }).items;
      return first?.status === 'delivered' ? first : undefined;
    });
    await server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
    return delivery;
  }

  it('a webhook delivery goes to the address checked, with the name as Host', async () => {
    await deliverWebhookTo('hook.localhost');
    const hits = listeners.hits.filter((h) => h.host === `hook.localhost:${listeners.port}`);
    assert.deepEqual(
      hits.map((h) => h.listener),
      ['127.0.0.1'],
    );
    assert.equal(dns.asked('hook.localhost'), 1, 'resolved once: by the check, not again to connect');
  });

  it('a name that turns into a metadata address after the check still reaches only the checked address', async () => {
    await deliverWebhookTo('hook-meta.localhost');
    assert.deepEqual(
      listeners.hits.filter((h) => h.host?.startsWith('hook-meta.localhost')).map((h) => h.listener),
      ['127.0.0.1'],
    );
    assert.equal(dns.asked('hook-meta.localhost'), 1);
  });

  it('a replay goes to the address checked', async () => {
    const inbox = await createInbox(server, { name: 'replayed' });
    const sent = await deliver(inbox.url, '{"payload":"x"}', { 'content-type': 'application/json' });
    const res = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}/messages/${sent.messageUuid}/replay`,
      jsonBody({ url: `http://replay.localhost:${listeners.port}/r` }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const relay = (await res.json()) as { status_code: number; response_excerpt: string };
    assert.equal(relay.status_code, 200);
    assert.equal(relay.response_excerpt, 'answered by 127.0.0.1');
    assert.equal(dns.asked('replay.localhost'), 1);
  });

  it('a forward is checked again when it is sent and goes to the address of that check', async () => {
    const inbox = await createInbox(server, { name: 'forwarding', forward_to: `http://forward.localhost:${listeners.port}/f` });
    assert.equal(dns.asked('forward.localhost'), 1, 'checked when saved');
    const sent = await deliver(inbox.url, '{"payload":"x"}', { 'content-type': 'application/json' });
    const message = await waitFor('the forward', async () => {
      const m = await getMessage(server, inbox.uuid, sent.messageUuid);
      return m.relays[0]?.duration_ms != null ? m : undefined;
    });
    assert.equal(message.relays[0]?.status_code, 200, message.relays[0]?.error ?? '');
    assert.equal(message.relays[0]?.response_excerpt, 'answered by 127.0.0.1');
    assert.equal(dns.asked('forward.localhost'), 2, 'and once more when forwarding, not a third time to connect');
    assert.ok(!listeners.hits.some((h) => h.listener === '127.0.0.2'), 'nothing reached the address a second lookup would give');
  });

  it('refuses a replay or forward_to whose name resolves to a metadata address, without connecting', async () => {
    const inbox = await createInbox(server, { name: 'blocked' });
    const sent = await deliver(inbox.url, '{}', { 'content-type': 'application/json' });
    const url = `http://metadata-alias.localhost:${listeners.port}/x`;
    const replay = await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages/${sent.messageUuid}/replay`, jsonBody({ url }));
    assert.equal(replay.status, 400);
    assert.match(((await replay.json()) as { error: { message: string } }).error.message, /resolves to 169\.254\.169\.254/);
    const created = await server.request(
      '/api/inboxes',
      jsonBody({ organization_uuid: server.organizationUuid, name: 'x', forward_to: url }),
    );
    assert.equal(created.status, 400);
    assert.ok(!listeners.hits.some((h) => h.path === '/x'));
  });

  it('a forward_to whose name resolves to this server is an inbox of this server', async () => {
    const target = await createInbox(server, { name: 'target' });
    const res = await server.request(
      '/api/inboxes',
      jsonBody({
        organization_uuid: server.organizationUuid,
        name: 'x',
        forward_to: `https://alias-of-this-server.test:${server.port}/inbox/${target.uuid}`,
      }),
    );
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /points at an inbox of this server/);
  });
});
