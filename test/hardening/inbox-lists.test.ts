import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { craft, deliveryHeaders, envelope, SECRET } from '../support/deliveries.ts';
import { createInbox, deliver, getMessage, type InboxView, type MessageView } from '../support/inboxes.ts';
import { startTestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const MB = 1024 * 1024;
const BIG_MESSAGES = 100;
/** What one list item may weigh, whatever the message holds: its excerpt, headers, verdicts and relays. */
const ITEM_BYTES = 24 * 1024;

/** 1 MB of control bytes: valid UTF-8 that JSON escapes to six bytes each (\u0001). */
function controlBytes(seed: number): Buffer {
  const bytes = Buffer.alloc(MB);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i + seed) % 32;
  return bytes;
}

interface ListedMessage extends MessageView {
  body_excerpted: boolean;
  envelope_size: number | null;
  envelope_omitted: boolean;
}

describe('inbox message lists: bounded in bytes, full bodies one message at a time', () => {
  const server = suiteServer(() => startTestServer({ inboxLimits: { bytesPerMinute: 2 * BIG_MESSAGES * MB } }));
  let inbox: InboxView;
  const sent = new Map<string, Buffer>();
  let bigEnvelopeUuid = '';
  let bigEnvelope: Record<string, unknown> = {};

  before(async () => {
    inbox = await createInbox(server, { name: 'big messages', secrets: [SECRET] });
    for (let i = 0; i < BIG_MESSAGES - 1; i++) {
      const body = controlBytes(i);
      const answer = await deliver(inbox.url, body, { 'content-type': 'application/octet-stream' });
      assert.equal(answer.status, 400, answer.text);
      sent.set(answer.messageUuid, body);
    }
    bigEnvelope = envelope({ data: { note: '\u0001'.repeat(100_000) } });
    const delivery = craft(bigEnvelope);
    const answer = await deliver(inbox.url, delivery.body, deliveryHeaders(delivery));
    assert.equal(answer.status, 200, answer.text);
    bigEnvelopeUuid = answer.messageUuid;
  });

  async function listPage(perPage: number): Promise<{ status: number; bytes: number; items: ListedMessage[] }> {
    const res = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}/messages?organization_uuid=${server.organizationUuid}&per_page=${perPage}`,
    );
    const text = await res.text();
    const items = res.status === 200 ? (JSON.parse(text) as { items: ListedMessage[] }).items : [];
    return { status: res.status, bytes: Buffer.byteLength(text), items };
  }

  it('answers a page of 20 messages of 1 MB of control bytes in a bounded number of bytes, with excerpts and sizes', async () => {
    const page = await listPage(20);
    assert.equal(page.status, 200);
    assert.equal(page.items.length, 20);
    assert.ok(page.bytes <= 20 * ITEM_BYTES, `the page is ${page.bytes} bytes, over ${20 * ITEM_BYTES}`);
    const control = page.items.find((m) => m.uuid !== bigEnvelopeUuid);
    assert.ok(control);
    assert.equal(control.body_size, MB, 'the size of the whole body');
    assert.equal(control.body_excerpted, true);
    assert.ok(sent.get(control.uuid)?.toString('utf8').startsWith(control.body), 'the excerpt is the start of the body');
    assert.ok(control.body.length > 0);
  });

  it('answers per_page=100 (the GUI\'s "Compare with") in a bounded number of bytes', async () => {
    const page = await listPage(100);
    assert.equal(page.status, 200);
    assert.equal(page.items.length, BIG_MESSAGES);
    assert.ok(page.bytes <= BIG_MESSAGES * ITEM_BYTES, `the page is ${page.bytes} bytes, over ${BIG_MESSAGES * ITEM_BYTES}`);
    const decrypted = page.items.find((m) => m.uuid === bigEnvelopeUuid);
    assert.ok(decrypted);
    assert.equal(decrypted.decrypted, true);
    assert.equal(decrypted.event_type, bigEnvelope.type, 'the verdicts and event fields stay in the list');
    assert.equal(decrypted.envelope, null, 'an envelope too big for a list is left out');
    assert.equal(decrypted.envelope_omitted, true);
    assert.equal(decrypted.envelope_size, Buffer.byteLength(JSON.stringify(bigEnvelope)));
  });

  it('gives the full body and envelope of one message, byte for byte', async () => {
    const [uuid, body] = [...sent.entries()][7] ?? [];
    assert.ok(uuid && body);
    const message = (await getMessage(server, inbox.uuid, uuid)) as ListedMessage;
    assert.equal(message.body_size, MB);
    assert.equal(message.body_excerpted, false);
    assert.ok(Buffer.from(message.body, 'utf8').equals(body), 'the JSON body is the whole body');
    const raw = await server.request(`/api/inboxes/uuid/${inbox.uuid}/messages/${uuid}/body`);
    assert.equal(raw.status, 200);
    assert.ok(Buffer.from(await raw.arrayBuffer()).equals(body), 'the raw body is byte-exact');

    const decrypted = (await getMessage(server, inbox.uuid, bigEnvelopeUuid)) as ListedMessage;
    assert.deepEqual(decrypted.envelope, bigEnvelope);
    assert.equal(decrypted.envelope_omitted, false);
  });
});
