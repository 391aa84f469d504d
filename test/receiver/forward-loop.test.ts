import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createInbox,
  deliver,
  getMessage,
  listMessages,
  startCaptureServer,
  type CaptureServer,
  type MessageView,
} from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

const HOP = 'x-qr-sandbox-forwarded';

function header(rawHeaders: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === name) return rawHeaders[i + 1];
  return undefined;
}

/** Posts whatever arrives on to `target()` with every header, like a tunnel or a proxy in front of the inbox would. */
function relayProxy(target: () => string): Promise<CaptureServer> {
  return startCaptureServer((req, res) => {
    const headers: Record<string, string> = {};
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? '';
      if (!['host', 'connection', 'content-length', 'transfer-encoding'].includes(name.toLowerCase()))
        headers[name] = req.rawHeaders[i + 1] ?? '';
    }
    fetch(target(), { method: 'POST', headers, body: req.body }).then(
      async (answer) => res.writeHead(answer.status).end(await answer.text()),
      () => res.writeHead(502).end(),
    );
  });
}

describe('forwarding cannot loop', () => {
  let server: TestServer;
  let app: CaptureServer;
  before(async () => {
    server = await startTestServer();
    app = await startCaptureServer();
  });
  after(async () => {
    await server.stop();
    await app.close();
  });

  it('the router matches inbox paths case-insensitively and with a trailing slash, so the loop check must too', async () => {
    const inbox = await createInbox(server, { name: 'case' });
    const upper = `http://127.0.0.1:${server.port}/INBOX/${inbox.uuid}/`;
    const answer = await deliver(upper, '{}', { 'content-type': 'application/json' });
    assert.equal(answer.status, 400, answer.text);
    assert.ok(answer.messageUuid, 'the upper-case path reached the inbox');
    assert.equal((await listMessages(server, inbox.uuid)).total, 1);
  });

  it('refuses a forward_to that reaches one of its own inboxes, however the URL is written', async () => {
    const target = await createInbox(server, { name: 'target' });
    const port = server.port;
    const id = target.uuid;
    const spellings = [
      `http://127.0.0.1:${port}/inbox/${id}`,
      `http://127.0.0.1:${port}/INBOX/${id}`,
      `http://127.0.0.1:${port}/Inbox/${id.toUpperCase()}/`,
      `http://127.0.0.1:${port}/inbox/${id}/?x=1`,
      `http://127.0.0.1:${port}//inbox/${id}`,
      `http://127.0.0.1:${port}/inbox/%${id.charCodeAt(0).toString(16)}${id.slice(1)}`,
      `http://127.0.0.1:${port}/%69nbox/${id}`,
      `http://localhost:${port}/inbox/${id}`,
      `http://LOCALHOST:${port}/inbox/${id}`,
      `http://app.localhost:${port}/inbox/${id}`,
      `http://[::1]:${port}/inbox/${id}`,
      `http://[::ffff:127.0.0.1]:${port}/inbox/${id}`,
      `http://127.0.0.2:${port}/inbox/${id}`,
      `http://2130706433:${port}/inbox/${id}`,
      `http://0x7f.1:${port}/inbox/${id}`,
      `http://127.1:${port}/inbox/${id}`,
      `http://127.0.0.1.:${port}/inbox/${id}`,
    ];
    for (const forward_to of spellings) {
      const res = await server.request('/api/inboxes', jsonBody({ organization_uuid: server.organizationUuid, name: 'loop', forward_to }));
      const body = (await res.json()) as { error?: { code: string; details?: Array<{ path: string }> } };
      assert.equal(res.status, 400, `${forward_to} must be refused`);
      assert.equal(body.error?.code, 'VALIDATION_ERROR');
      assert.equal(body.error?.details?.[0]?.path, 'body.forward_to');
      const patched = await server.request(`/api/inboxes/uuid/${id}`, jsonBody({ forward_to }, 'PATCH'));
      assert.equal(patched.status, 400, `PATCH ${forward_to} must be refused`);
    }
    // Another port on this machine (the user's app) and another path of this server are fine.
    await createInbox(server, { name: 'to my app', forward_to: `${app.url}/inbox/${id}` });
    await createInbox(server, { name: 'to a page', forward_to: `http://127.0.0.1:${port}/hooks` });
  });

  it('forwards with the hop header, and an inbox that receives a relayed request stores it without forwarding it again', async () => {
    const last = await createInbox(server, { name: 'second hop', forward_to: `${app.url}/never` });
    const first = await createInbox(server, { name: 'first hop', forward_to: `${app.url}/first` });
    const before = app.requests.length;
    const sent = await deliver(first.url, '{"payload":"x"}', { 'content-type': 'application/json' });
    const [forwarded] = (await app.waitFor(before + 1)).slice(before);
    assert.equal(forwarded?.url, '/first');
    assert.equal(header(forwarded?.rawHeaders ?? [], HOP), '1', 'the forward says it has passed one inbox');
    assert.ok(sent.messageUuid);

    const relayed = await deliver(last.url, '{"payload":"x"}', { 'content-type': 'application/json', [HOP]: '1' });
    assert.equal(relayed.status, 400, 'answered as any delivery that cannot be decrypted');
    const message = await waitFor('the refused forward to be recorded', async () => {
      const m = await getMessage(server, last.uuid, relayed.messageUuid);
      return m.relays.length > 0 ? m : undefined;
    });
    assert.equal(message.relays[0]?.kind, 'forward');
    assert.equal(message.relays[0]?.status_code, null);
    assert.match(message.relays[0]?.error ?? '', /Not forwarded: .*relayed by an inbox.*X-QR-Sandbox-Forwarded: 1/);
    assert.equal(message.headers[HOP], '1', 'the hop header is kept in the stored request');
    assert.ok(!app.requests.some((r) => r.url === '/never'), 'nothing was forwarded');
  });

  it('a loop through a proxy back into the same inbox ends after one hop', async () => {
    let inboxUrl = '';
    const proxy = await relayProxy(() => inboxUrl);
    try {
      const inbox = await createInbox(server, { name: 'behind a tunnel', forward_to: `${proxy.url}/tunnel` });
      inboxUrl = inbox.url;
      const sent = await deliver(inbox.url, '{"payload":"x"}', { 'content-type': 'application/json' });
      const messages = await waitFor('the relayed copy to be refused', async () => {
        const page = await listMessages(server, inbox.uuid);
        return page.items.length === 2 && page.items.every((m) => m.relays.length === 1) ? page.items : undefined;
      });
      const [second, first] = messages as [MessageView, MessageView];
      assert.equal(first.uuid, sent.messageUuid);
      assert.equal(first.relays[0]?.url, `${proxy.url}/tunnel`);
      assert.equal(first.relays[0]?.status_code, 400, 'the proxy answered with what the inbox answered');
      assert.equal(second.headers[HOP], '1');
      assert.match(second.relays[0]?.error ?? '', /Not forwarded/);
      assert.equal(proxy.requests.length, 1, 'the proxy was called once');
      assert.equal((await listMessages(server, inbox.uuid)).total, 2);
    } finally {
      await proxy.close();
    }
  });

  it('a replay into an inbox that forwards goes no further', async () => {
    const source = await createInbox(server, { name: 'source' });
    const forwarding = await createInbox(server, { name: 'forwarding', forward_to: `${app.url}/after-replay` });
    const sent = await deliver(source.url, '{"payload":"x"}', { 'content-type': 'application/json' });
    const res = await server.request(
      `/api/inboxes/uuid/${source.uuid}/messages/${sent.messageUuid}/replay`,
      jsonBody({ url: `http://localhost:${server.port}/INBOX/${forwarding.uuid}` }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const page = await waitFor('the replayed copy and its refused forward', async () => {
      const p = await listMessages(server, forwarding.uuid);
      return p.items[0]?.relays.length === 1 ? p : undefined;
    });
    assert.equal(page.total, 1);
    assert.equal(page.items[0]?.headers[HOP], '1');
    assert.match(page.items[0]?.relays[0]?.error ?? '', /Not forwarded/);
    assert.ok(!app.requests.some((r) => r.url === '/after-replay'));
  });

  it('a forward_to saved while the server ran on another port is checked again when forwarding', async () => {
    const inbox = await createInbox(server, { name: 'port changed', forward_to: `${app.url}/x` });
    // The server's port as the forward_to's: as if the server had been restarted on the port forward_to names.
    server.ctx.db.sqlite
      .prepare('UPDATE inboxes SET forward_to = ? WHERE uuid = ?')
      .run(`http://127.0.0.1:${server.port}/Inbox/${inbox.uuid}`, inbox.uuid);
    const sent = await deliver(inbox.url, '{"payload":"x"}', { 'content-type': 'application/json' });
    const message = await waitFor('the refused forward', async () => {
      const m = await getMessage(server, inbox.uuid, sent.messageUuid);
      return m.relays.length > 0 ? m : undefined;
    });
    assert.match(message.relays[0]?.error ?? '', /Not forwarded: forward_to points at an inbox of this server/);
    assert.equal((await listMessages(server, inbox.uuid)).total, 1);
  });
});
