import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInbox, deliver, getMessage, startCaptureServer, type CaptureServer } from '../support/inboxes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe("an inbox with forward_answers answers with the app's answer", () => {
  let server: TestServer;
  let teapot: CaptureServer;
  let dropping: CaptureServer;
  const inboxUrl = (uuid: string) => `http://127.0.0.1:${server.port}/inbox/${uuid}`;
  const json = { 'content-type': 'application/json' };

  before(async () => {
    server = await startTestServer();
    teapot = await startCaptureServer((_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('I am a teapot');
    });
    dropping = await startCaptureServer((_req, res) => res.socket?.destroy());
  });
  after(async () => {
    await Promise.all([teapot.close(), dropping.close()]);
    await server.stop();
  });

  it("gives the sender the app's status and body, and records both", async () => {
    const inbox = await createInbox(server, { forward_to: `${teapot.url}/hook`, forward_answers: true });
    assert.equal((inbox as unknown as { forward_answers: boolean }).forward_answers, true);
    const answer = await deliver(inboxUrl(inbox.uuid), '{"payload":"x"}', json);
    assert.equal(answer.status, 418);
    assert.equal(answer.text, 'I am a teapot');
    const message = (await getMessage(server, inbox.uuid, answer.messageUuid)) as unknown as {
      answer: { kind: string; status: number };
      relays: Array<{ kind: string; status_code: number }>;
    };
    assert.deepEqual([message.answer.kind, message.answer.status], ['forwarded', 418]);
    assert.deepEqual(
      message.relays.map((r) => [r.kind, r.status_code]),
      [['forward', 418]],
    );
    assert.equal(teapot.requests.length, 1);
  });

  it('closes the connection without an answer when the app gives none', async () => {
    const inbox = await createInbox(server, { forward_to: `${dropping.url}/hook`, forward_answers: true });
    await assert.rejects(fetch(inboxUrl(inbox.uuid), { method: 'POST', headers: json, body: '{"payload":"x"}' }));
    const list = (await (
      await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages?organization_uuid=${server.organizationUuid}`)
    ).json()) as { items: Array<{ answer: { kind: string; status: number | null }; relays: Array<{ error: string | null }> }> };
    assert.deepEqual(list.items[0]?.answer.kind, 'forward_failed');
    assert.equal(list.items[0]?.answer.status, null);
    assert.match(list.items[0]?.relays[0]?.error ?? '', /closed the connection|socket|failed/i);
  });

  it("answers a matching rule's fault itself, without calling the app", async () => {
    const before = teapot.requests.length;
    const inbox = await createInbox(server, {
      forward_to: `${teapot.url}/hook`,
      forward_answers: true,
      rules: [{ match: {}, respond: { status: 503 } }],
    });
    const answer = await deliver(inboxUrl(inbox.uuid), '{"payload":"x"}', json);
    assert.equal(answer.status, 503);
    assert.match(answer.text, /"fault_injection":true/);
    assert.equal(teapot.requests.length, before, 'the app was not called');
  });
});
