import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { craft, deliveryHeaders, envelope, SECRET } from '../support/deliveries.ts';
import { createInbox, deliver, getMessage, listMessages, type InboxView } from '../support/inboxes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { serverSentEvents } from '../support/sse.ts';

/** Reads server-sent events until one of `type` arrives. */
async function nextEvent(body: ReadableStream<Uint8Array>, type: string): Promise<{ data: Record<string, unknown> }> {
  for await (const { event, data } of serverSentEvents(body)) {
    if (event === type) return JSON.parse(data ?? '{}') as { data: Record<string, unknown> };
  }
  throw new Error(`stream ended before ${type}`);
}

/** A request with a body of exact bytes and headers fetch would not send (or would fix up). */
function rawPost(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const chunked = headers['transfer-encoding'] === 'chunked';
    const req = http.request(
      url,
      { method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('inbox receiver (/inbox/{uuid})', () => {
  let server: TestServer;
  let inbox: InboxView;
  before(async () => {
    server = await startTestServer();
    inbox = await createInbox(server, { secrets: [SECRET] });
  });
  after(() => server.stop());

  it('takes a delivery without Authorization, answers 200, decrypts it and verifies it with the inbox secret', async () => {
    const value = envelope();
    const d = craft(value);
    const answer = await deliver(
      inbox.url,
      d.body,
      deliveryHeaders(d, { 'x-sandbox-delivery-id': 'dlv_valid_1', 'x-sandbox-event': String(value.type) }),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.text), {
      received: true,
      message_uuid: answer.messageUuid,
      decrypted: true,
      signature_status: 'valid',
      duplicate_of: null,
    });

    const message = await getMessage(server, inbox.uuid, answer.messageUuid);
    assert.equal(message.method, 'POST');
    assert.equal(message.body, d.body);
    assert.equal(message.headers['x-service-signature'], d.signatureHeader);
    assert.equal(message.decrypted, true);
    assert.equal(message.signature_status, 'valid');
    assert.equal(message.verified_with, 'inbox secret');
    assert.deepEqual(message.envelope, value);
    assert.equal(message.event_id, value.id);
    assert.equal(message.event_type, 'service_confirmation.check_in');
    assert.equal(message.delivery_id, 'dlv_valid_1');
    assert.deepEqual(message.answer.kind, 'ok');
  });

  it('says invalid for a delivery signed with a wrong secret, still answering 2xx (DESIGN: 400 only when undecryptable)', async () => {
    const d = craft(envelope(), 'an-old-secret');
    const answer = await deliver(inbox.url, d.body, deliveryHeaders(d));
    assert.equal(answer.status, 200);
    const message = await getMessage(server, inbox.uuid, answer.messageUuid);
    assert.equal(message.decrypted, true);
    assert.equal(message.signature_status, 'invalid');
    assert.equal(message.verified_with, null);
    assert.deepEqual(
      message.hints.map((h) => h.code),
      ['WRONG_SECRET'],
    );
  });

  it('says unknown without a secret, and verifies with the second secret during a rotation', async () => {
    const bare = await createInbox(server, { name: 'no secrets' });
    const d = craft(envelope(), 'new-secret');
    const unknown = await deliver(bare.url, d.body, deliveryHeaders(d));
    assert.equal(unknown.status, 200);
    const m1 = await getMessage(server, bare.uuid, unknown.messageUuid);
    assert.equal(m1.decrypted, true);
    assert.equal(m1.signature_status, 'unknown');
    assert.deepEqual(
      m1.hints.map((h) => h.code),
      ['NO_SECRET'],
    );

    const rotating = await createInbox(server, { name: 'rotation', secrets: ['old-secret', 'new-secret'] });
    const valid = await deliver(rotating.url, d.body, deliveryHeaders(d));
    const m2 = await getMessage(server, rotating.uuid, valid.messageUuid);
    assert.equal(m2.signature_status, 'valid');
    assert.equal(m2.verified_with, 'inbox secret 2 of 2');
  });

  it('stores garbage of every kind byte for byte, answers 400 with the reason, never 500', async () => {
    const good = craft(envelope());
    const other = craft(envelope({ id: 'evt_00000000-0000-4000-8000-0000000000ff' }), SECRET, Buffer.alloc(16, 9));
    const cases: Array<{ name: string; body: Buffer; headers: Record<string, string>; problem: string }> = [
      { name: 'empty body', body: Buffer.alloc(0), headers: deliveryHeaders(good), problem: 'BODY_NOT_A_DELIVERY' },
      {
        name: 'plain text',
        body: Buffer.from('hello, inbox'),
        headers: { 'content-type': 'text/plain', 'x-service-signature': good.signatureHeader },
        problem: 'BODY_NOT_A_DELIVERY',
      },
      { name: 'broken JSON', body: Buffer.from('{"payload": '), headers: deliveryHeaders(good), problem: 'PAYLOAD_NOT_BASE64' },
      { name: 'JSON without payload', body: Buffer.from('{"data": 1}'), headers: deliveryHeaders(good), problem: 'PAYLOAD_NOT_BASE64' },
      {
        name: 'payload not base64',
        body: Buffer.from('{"payload": "!!!not base64!!!"}'),
        headers: deliveryHeaders(good),
        problem: 'PAYLOAD_NOT_BASE64',
      },
      { name: 'payload too short', body: Buffer.from('{"payload": "AAAA"}'), headers: deliveryHeaders(good), problem: 'PAYLOAD_TOO_SHORT' },
      {
        name: 'payload not block aligned',
        body: Buffer.from(JSON.stringify({ payload: Buffer.alloc(40).toString('base64') })),
        headers: deliveryHeaders(good),
        problem: 'PAYLOAD_NOT_BLOCK_ALIGNED',
      },
      {
        name: 'no signature header',
        body: Buffer.from(good.body),
        headers: { 'content-type': 'application/json' },
        problem: 'SIGNATURE_MISSING',
      },
      {
        name: 'malformed signature',
        body: Buffer.from(good.body),
        headers: { 'content-type': 'application/json', 'x-service-signature': 'sha256=nothex' },
        problem: 'MALFORMED_SIGNATURE',
      },
      {
        name: 'signature of another delivery',
        body: Buffer.from(good.body),
        headers: deliveryHeaders(other),
        problem: 'DECRYPTION_FAILED|PLAINTEXT_NOT_JSON',
      },
      {
        name: 'binary, not UTF-8',
        body: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x80, 0x81]),
        headers: { 'content-type': 'application/octet-stream', 'x-service-signature': good.signatureHeader },
        problem: 'BODY_NOT_A_DELIVERY',
      },
    ];
    for (const c of cases) {
      const answer = await rawPost(inbox.url, c.body, c.headers);
      assert.equal(answer.status, 400, `${c.name}: ${answer.text}`);
      const error = (JSON.parse(answer.text) as { error: { code: string; message: string; details: unknown[] } }).error;
      assert.equal(error.code, 'VALIDATION_ERROR', c.name);
      assert.ok(error.details.length > 0, `${c.name} has hints`);
      const uuid = String(answer.headers['x-inbox-message-uuid']);
      const message = await getMessage(server, inbox.uuid, uuid);
      assert.equal(message.decrypted, false, c.name);
      assert.match(message.decryption_problem ?? '', new RegExp(`^(${c.problem})$`), c.name);
      assert.ok(message.decryption_error, c.name);
      assert.equal(message.signature_status, 'unknown', c.name);
      assert.equal(message.answer.status, 400, c.name);
      const stored = await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages/${uuid}/body`);
      assert.deepEqual(Buffer.from(await stored.arrayBuffer()), c.body, `${c.name}: exact bytes kept`);
    }
    const binary = await listMessages(server, inbox.uuid, 'per_page=100');
    const kept = binary.items.find((m) => m.headers['content-type'] === 'application/octet-stream');
    assert.equal(kept?.body_base64, Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x80, 0x81]).toString('base64'));
  });

  it('stores other methods too, and keeps the query string', async () => {
    const res = await fetch(`${inbox.url}?source=browser`, { method: 'GET' });
    assert.equal(res.status, 400);
    const message = await getMessage(server, inbox.uuid, res.headers.get('x-inbox-message-uuid') ?? '');
    assert.equal(message.method, 'GET');
    assert.equal(message.path, `/inbox/${inbox.uuid}?source=browser`);
  });

  it('keeps the start of an oversized body sent without Content-Length and answers 413', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
    const answer = await rawPost(inbox.url, big, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.text).error.code, 'PAYLOAD_TOO_LARGE');
    const page = await listMessages(server, inbox.uuid, 'per_page=1');
    const message = page.items[0];
    assert.ok(message);
    assert.equal(message.body_truncated, true);
    assert.equal(message.body_size, 1024 * 1024);
    assert.equal(message.decryption_problem, 'BODY_INCOMPLETE');
  });

  it('flags duplicates: a retry with the same delivery id, and a resend with the same signature', async () => {
    const dupInbox = await createInbox(server, { name: 'dups', secrets: [SECRET] });
    const value = envelope();
    const first = craft(value, SECRET, Buffer.alloc(16, 1));
    const retry = craft(value, SECRET, Buffer.alloc(16, 2));
    assert.notEqual(first.body, retry.body, 'a retry has a fresh IV');
    const a = await deliver(
      dupInbox.url,
      first.body,
      deliveryHeaders(first, { 'x-sandbox-delivery-id': 'dlv_42', 'x-sandbox-attempt': '1' }),
    );
    const b = await deliver(
      dupInbox.url,
      retry.body,
      deliveryHeaders(retry, { 'x-sandbox-delivery-id': 'dlv_42', 'x-sandbox-attempt': '2' }),
    );
    const c = await deliver(dupInbox.url, retry.body, deliveryHeaders(retry));
    const fresh = craft(envelope());
    const d = await deliver(dupInbox.url, fresh.body, deliveryHeaders(fresh, { 'x-sandbox-delivery-id': 'dlv_43' }));
    assert.equal(JSON.parse(b.text).duplicate_of, a.messageUuid);

    const mb = await getMessage(server, dupInbox.uuid, b.messageUuid);
    assert.equal(mb.duplicate_of, a.messageUuid);
    assert.equal(mb.duplicate_by, 'delivery_id');
    const mc = await getMessage(server, dupInbox.uuid, c.messageUuid);
    assert.equal(mc.duplicate_of, a.messageUuid);
    assert.equal(mc.duplicate_by, 'signature');
    assert.equal((await getMessage(server, dupInbox.uuid, a.messageUuid)).duplicate_of, null);
    assert.equal((await getMessage(server, dupInbox.uuid, d.messageUuid)).duplicate_of, null);

    const dups = await listMessages(server, dupInbox.uuid, 'duplicate=true');
    assert.deepEqual(dups.items.map((m) => m.uuid).sort(), [b.messageUuid, c.messageUuid].sort());
    const firsts = await listMessages(server, dupInbox.uuid, 'duplicate=false');
    assert.deepEqual(firsts.items.map((m) => m.uuid).sort(), [a.messageUuid, d.messageUuid].sort());
  });

  it('filters by event type, verdict and time, and pages newest first', async () => {
    const box = await createInbox(server, { name: 'filters', secrets: [SECRET] });
    const checkIn = craft(envelope({ type: 'service_confirmation.check_in' }));
    const delivery = craft(envelope({ type: 'service_confirmation.delivery' }));
    const wrong = craft(envelope({ type: 'service_confirmation.check_out' }), 'wrong');
    const m1 = await deliver(box.url, checkIn.body, deliveryHeaders(checkIn));
    const m2 = await deliver(box.url, delivery.body, deliveryHeaders(delivery));
    const m3 = await deliver(box.url, wrong.body, deliveryHeaders(wrong));
    const m4 = await deliver(box.url, 'garbage', { 'content-type': 'text/plain' });

    const all = await listMessages(server, box.uuid);
    assert.deepEqual(
      all.items.map((m) => m.uuid),
      [m4, m3, m2, m1].map((m) => m.messageUuid),
    );
    assert.equal(all.total, 4);

    assert.deepEqual(
      (await listMessages(server, box.uuid, 'event_type=service_confirmation.delivery')).items.map((m) => m.uuid),
      [m2.messageUuid],
    );
    assert.deepEqual(
      (await listMessages(server, box.uuid, 'signature_status=invalid')).items.map((m) => m.uuid),
      [m3.messageUuid],
    );
    assert.deepEqual(
      (await listMessages(server, box.uuid, 'decrypted=false')).items.map((m) => m.uuid),
      [m4.messageUuid],
    );
    assert.equal((await listMessages(server, box.uuid, 'decrypted=true&signature_status=valid')).total, 2);
    const times = new Map(all.items.map((m) => [m.uuid, m.received_on]));
    const expect = (keep: (t: string) => boolean) => all.items.filter((m) => keep(m.received_on)).map((m) => m.uuid);
    const fromTime = times.get(m3.messageUuid) ?? '';
    const from = await listMessages(server, box.uuid, `from=${encodeURIComponent(fromTime)}`);
    assert.deepEqual(
      from.items.map((m) => m.uuid),
      expect((t) => t >= fromTime),
    );
    assert.ok(from.items.some((m) => m.uuid === m3.messageUuid));
    const toTime = times.get(m2.messageUuid) ?? '';
    const to = await listMessages(server, box.uuid, `to=${encodeURIComponent(toTime)}`);
    assert.deepEqual(
      to.items.map((m) => m.uuid),
      expect((t) => t < toTime),
    );
    assert.ok(!to.items.some((m) => m.uuid === m2.messageUuid));
    const future = await listMessages(server, box.uuid, `from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    assert.equal(future.total, 0);

    const page2 = await listMessages(server, box.uuid, 'per_page=3&page=2');
    assert.deepEqual(
      page2.items.map((m) => m.uuid),
      [m1.messageUuid],
    );
    assert.equal(page2.pages, 2);

    const bad = await server.request(
      `/api/inboxes/uuid/${box.uuid}/messages?organization_uuid=${server.organizationUuid}&from=yesterday&signature_status=maybe`,
    );
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(await bad.json()), /query\.from.*query\.signature_status|query\.signature_status.*query\.from/);
    const noOrg = await server.request(`/api/inboxes/uuid/${box.uuid}/messages`);
    assert.equal(noOrg.status, 400);
  });

  it('pushes inbox.message on /api/live', async () => {
    const controller = new AbortController();
    const stream = await server.request('/api/live', { signal: controller.signal });
    assert.ok(stream.body);
    const event = nextEvent(stream.body, 'inbox.message');
    const d = craft(envelope());
    const answer = await deliver(inbox.url, d.body, deliveryHeaders(d));
    const received = await event;
    controller.abort();
    assert.equal(received.data.uuid, answer.messageUuid);
    assert.equal(received.data.inbox_uuid, inbox.uuid);
    assert.equal(received.data.signature_status, 'valid');
    assert.equal(received.data.event_type, 'service_confirmation.check_in');
  });

  it('judges stored messages again once a secret is added, and finishes one the server never judged', async () => {
    const box = await createInbox(server, { name: 'secret later' });
    const d = craft(envelope());
    const first = await deliver(box.url, d.body, deliveryHeaders(d));
    const second = await deliver(box.url, d.body, deliveryHeaders(d));
    assert.equal((await getMessage(server, box.uuid, first.messageUuid)).signature_status, 'unknown');
    await server.ctx.db.kysely
      .updateTable('inbox_messages')
      .set({ analyzed: 0, decrypted: 0, signature_status: 'unknown', duplicate_of: null, duplicate_by: null, hints: '[]' })
      .where('uuid', '=', second.messageUuid)
      .execute();
    const unjudged = await getMessage(server, box.uuid, second.messageUuid);
    assert.match(unjudged.decryption_error ?? '', /Not judged yet/);

    await server.request(`/api/inboxes/uuid/${box.uuid}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secrets: ['wrong', SECRET] }),
    });
    const res = await server.request(`/api/inboxes/uuid/${box.uuid}/reverify`, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { checked: 2, changed: 2 });
    const m1 = await getMessage(server, box.uuid, first.messageUuid);
    assert.equal(m1.signature_status, 'valid');
    assert.equal(m1.verified_with, 'inbox secret 2 of 2');
    assert.deepEqual(m1.hints, []);
    const m2 = await getMessage(server, box.uuid, second.messageUuid);
    assert.equal(m2.decrypted, true);
    assert.equal(m2.signature_status, 'valid');
    assert.equal(m2.duplicate_of, first.messageUuid);
    assert.equal(m2.answer.kind, 'ok', 'the answer given at the time stays');

    const again = await server.request(`/api/inboxes/uuid/${box.uuid}/reverify`, { method: 'POST' });
    assert.deepEqual(await again.json(), { checked: 2, changed: 0 });
  });

  it('clears an inbox', async () => {
    const box = await createInbox(server, { name: 'to clear' });
    await deliver(box.url, 'x', {});
    assert.equal((await listMessages(server, box.uuid)).total, 1);
    assert.equal((await server.request(`/api/inboxes/uuid/${box.uuid}/messages`, { method: 'DELETE' })).status, 204);
    assert.equal((await listMessages(server, box.uuid)).total, 0);
  });
});

describe('inbox receiver at shutdown', () => {
  it('answers a request held by a long fault-injection delay at once when the server stops, and keeps it', async () => {
    const server = await startTestServer();
    const inbox = await createInbox(server, { response: { delay_ms: 60_000 } });
    const d = craft(envelope());
    const answer = deliver(inbox.url, d.body, deliveryHeaders(d));
    await waitForMessage(server, inbox.uuid);
    const dataDir = server.dataDir;
    await server.close();
    const { status } = await answer;
    assert.equal(status, 200, 'answered, not cut off');

    const reopened = await startTestServer({ dataDir });
    try {
      const page = await listMessages(reopened, inbox.uuid);
      assert.equal(page.items[0]?.answer.kind, 'ok');
      assert.equal(page.items[0]?.signature_status, 'unknown');
      assert.equal(page.items[0]?.decrypted, true);
    } finally {
      await reopened.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function waitForMessage(server: TestServer, inboxUuid: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await listMessages(server, inboxUuid)).total > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the message was never stored');
}
