import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import { createInbox, deliver, getMessage, listMessages, type InboxView } from '../support/inboxes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const MAX_MESSAGES = 5;
const MAX_BODY = 2048;

interface LimitedInbox extends InboxView {
  dropped_messages: number;
  max_messages: number;
}

async function inboxOf(server: TestServer, uuid: string): Promise<LimitedInbox> {
  const res = await server.request(`/api/inboxes/uuid/${uuid}`);
  assert.equal(res.status, 200);
  return (await res.json()) as LimitedInbox;
}

/** Announces `declared` bytes, sends only `sent` of them and waits for the answer with the upload still open. */
function announceLargeBody(
  url: string,
  declared: number,
  sent: number,
): Promise<{ status: number; text: string; messageUuid: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(declared) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            text,
            messageUuid: String(res.headers['x-inbox-message-uuid']),
            connection: res.headers.connection,
          });
          req.destroy();
        });
      },
    );
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.write(Buffer.alloc(sent, 0x61));
  });
}

describe('inbox limits: messages kept per inbox and body size', () => {
  const server = suiteServer(() => startTestServer({ inboxLimits: { maxMessages: MAX_MESSAGES, maxBodyBytes: MAX_BODY } }));

  it('keeps the newest messages, drops the oldest first and says how many were dropped', async () => {
    const inbox = await createInbox(server, { name: 'rotating' });
    assert.equal((inbox as LimitedInbox).max_messages, MAX_MESSAGES);
    assert.equal((inbox as LimitedInbox).dropped_messages, 0);
    const sent: string[] = [];
    for (let i = 0; i < MAX_MESSAGES + 3; i++) {
      const answer = await deliver(`${inbox.url}?n=${i}`, `{"n":${i}}`, { 'content-type': 'application/json' });
      assert.equal(answer.status, 400);
      sent.push(answer.messageUuid);
    }
    const page = await listMessages(server, inbox.uuid, 'per_page=100');
    assert.equal(page.total, MAX_MESSAGES);
    assert.deepEqual(
      page.items.map((m) => m.uuid),
      sent.slice(3).reverse(),
      'the newest five, newest first',
    );
    const after = await inboxOf(server, inbox.uuid);
    assert.equal(after.message_count, MAX_MESSAGES);
    assert.equal(after.dropped_messages, 3);
    const listed = await server.request(`/api/inboxes?organization_uuid=${server.organizationUuid}&per_page=100`);
    const row = ((await listed.json()) as { items: LimitedInbox[] }).items.find((i) => i.uuid === inbox.uuid);
    assert.equal(row?.dropped_messages, 3, 'the list says it too');
    const gone = await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages/${sent[0]}`);
    assert.equal(gone.status, 404);

    const cleared = await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages`, { method: 'DELETE' });
    assert.equal(cleared.status, 204);
    assert.equal((await inboxOf(server, inbox.uuid)).dropped_messages, 0, 'clearing starts the count afresh');
  });

  it('drops other inboxes of nothing', async () => {
    const quiet = await createInbox(server, { name: 'quiet' });
    await deliver(quiet.url, '{}', { 'content-type': 'application/json' });
    const busy = await createInbox(server, { name: 'busy' });
    for (let i = 0; i < MAX_MESSAGES * 2; i++) await deliver(busy.url, '{}', { 'content-type': 'application/json' });
    assert.equal((await inboxOf(server, quiet.uuid)).message_count, 1);
    assert.equal((await inboxOf(server, quiet.uuid)).dropped_messages, 0);
    assert.equal((await inboxOf(server, busy.uuid)).dropped_messages, MAX_MESSAGES);
  });

  it('deletes the oldest messages through the (inbox_uuid, seq) index', () => {
    const plan = (text: string) =>
      (server.ctx.db.sqlite.prepare(`explain query plan ${text}`).all('x', 5) as Array<{ detail: string }>).map((r) => r.detail).join('; ');
    assert.match(
      plan('select "seq" from "inbox_messages" where "inbox_uuid" = ? order by "seq" desc limit 1 offset ?'),
      /USING COVERING INDEX inbox_messages_by_inbox/,
    );
    assert.match(
      plan('delete from "inbox_messages" where "inbox_uuid" = ? and "seq" <= ?'),
      /USING COVERING INDEX inbox_messages_by_inbox|USING INDEX inbox_messages_by_inbox/,
    );
  });

  it('answers 413 to a Content-Length over the limit before the body is sent, and keeps the request line and headers', async () => {
    const inbox = await createInbox(server, { name: 'big bodies' });
    const answer = await announceLargeBody(inbox.url, 50 * 1024 * 1024, 1024);
    assert.equal(answer.status, 413);
    const error = (JSON.parse(answer.text) as { error: { code: string; message: string; details: Array<{ path: string }> } }).error;
    assert.equal(error.code, 'PAYLOAD_TOO_LARGE');
    assert.match(error.message, /Content-Length 52428800 bytes\) is larger than the inbox limit of 2 KB/);
    assert.equal(error.details[0]?.path, 'body');
    assert.equal(answer.connection, 'close');
    const message = await getMessage(server, inbox.uuid, answer.messageUuid);
    assert.equal(message.body_truncated, true);
    assert.equal(message.body_size, 0);
    assert.equal(message.answer.kind, 'too_large');
    assert.equal(message.headers['content-length'], String(50 * 1024 * 1024));
  });

  it('keeps the first bytes of a streamed body over the limit and answers 413; a body at the limit is fine', async () => {
    const inbox = await createInbox(server, { name: 'streamed' });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(1024).fill(0x62));
        controller.close();
      },
    });
    const res = await fetch(inbox.url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    assert.equal(res.status, 413);
    const message = await getMessage(server, inbox.uuid, res.headers.get('x-inbox-message-uuid') ?? '');
    assert.equal(message.body_size, MAX_BODY);
    assert.equal(message.body, 'b'.repeat(MAX_BODY));

    const exact = await deliver(inbox.url, 'c'.repeat(MAX_BODY), { 'content-type': 'text/plain' });
    assert.equal(exact.status, 400, 'judged as a delivery: not too large');
    assert.equal((await getMessage(server, inbox.uuid, exact.messageUuid)).body_size, MAX_BODY);
  });
});
