import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { craft, deliveryHeaders, envelope, SECRET } from '../support/deliveries.ts';
import { createInbox, deliver, type InboxView, type MessageView } from '../support/inboxes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface JsonExport {
  exported_on: string;
  signature_masked: boolean;
  inbox: InboxView;
  messages: MessageView[];
}

interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: Array<{
      startedDateTime: string;
      time: number;
      request: {
        method: string;
        url: string;
        httpVersion: string;
        headers: Array<{ name: string; value: string }>;
        queryString: unknown[];
        postData?: { mimeType: string; text: string };
        bodySize: number;
        cookies: unknown[];
        headersSize: number;
      };
      response: {
        status: number;
        content: { size: number; mimeType: string };
        headers: unknown[];
        redirectURL: string;
        cookies: unknown[];
      };
      cache: object;
      timings: { send: number; wait: number; receive: number };
      _qr_sandbox: { signature_status: string; envelope: unknown };
    }>;
  };
}

const digestBase64Of = (hex = '') => Buffer.from(hex, 'hex').toString('base64');

describe('inbox export (JSON and HAR 1.2)', () => {
  let server: TestServer;
  let inbox: InboxView;
  const deliveries = [
    craft(envelope({ type: 'service_confirmation.check_in' })),
    craft(envelope({ type: 'service_confirmation.delivery' })),
  ];
  const wrong = craft(envelope({ type: 'service_confirmation.check_out' }), 'wrong-secret');
  const uuids: string[] = [];

  before(async () => {
    server = await startTestServer();
    inbox = await createInbox(server, { name: 'exported', secrets: [SECRET] });
    for (const d of [...deliveries, wrong])
      uuids.push((await deliver(`${inbox.url}?n=${uuids.length}`, d.body, deliveryHeaders(d))).messageUuid);
    uuids.push((await deliver(inbox.url, 'not a delivery', { 'content-type': 'text/plain' })).messageUuid);
    const digestBase64 = Buffer.from(deliveries[0]?.signature ?? '', 'hex').toString('base64');
    uuids.push(
      (
        await deliver(inbox.url, deliveries[0]?.body ?? '', {
          'content-type': 'application/json',
          'x-service-signature': `sha256=${digestBase64}`,
        })
      ).messageUuid,
    );
  });
  after(() => server.stop());

  const download = async (query: string) => {
    const res = await server.request(`/api/inboxes/uuid/${inbox.uuid}/export?organization_uuid=${server.organizationUuid}&${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return { res, text: await res.text() };
  };

  it('exports JSON oldest first with the signature masked, and keeps it only when asked', async () => {
    const { res, text } = await download('format=json');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="inbox-.*\.json"$/);
    const exported = JSON.parse(text) as JsonExport;
    assert.equal(exported.signature_masked, true);
    assert.equal(exported.inbox.uuid, inbox.uuid);
    assert.equal(exported.inbox.secrets, undefined, 'never the inbox secrets');
    assert.deepEqual(
      exported.messages.map((m) => m.uuid),
      uuids,
    );
    for (const message of exported.messages.slice(0, 3)) {
      assert.match(message.headers['x-service-signature'] ?? '', /^sha256=\[masked/);
    }
    assert.ok(!text.includes(deliveries[0]?.signature ?? 'x'), 'the signature hex appears nowhere');
    const digestBase64 = Buffer.from(deliveries[0]?.signature ?? '', 'hex').toString('base64');
    assert.ok(!text.includes(digestBase64.slice(0, 20)), 'nor a malformed (base64) signature quoted in an error');
    assert.equal(exported.messages[4]?.decryption_problem, 'MALFORMED_SIGNATURE');
    assert.deepEqual(exported.messages[0]?.envelope, JSON.parse(deliveries[0]?.plaintext ?? ''));

    const kept = JSON.parse((await download('include_signature=true')).text) as JsonExport;
    assert.equal(kept.signature_masked, false);
    assert.equal(kept.messages[0]?.headers['x-service-signature'], deliveries[0]?.signatureHeader);
  });

  it('exports HAR 1.2 that a browser can import', async () => {
    const { res, text } = await download('format=har');
    assert.match(res.headers.get('content-disposition') ?? '', /\.har"$/);
    const har = JSON.parse(text) as Har;
    assert.equal(har.log.version, '1.2');
    assert.equal(har.log.creator.name, 'QR Sandbox');
    assert.equal(har.log.entries.length, 5);
    const [first, , third, fourth] = har.log.entries;
    assert.ok(!text.includes(digestBase64Of(deliveries[0]?.signature).slice(0, 20)));
    assert.ok(first && third && fourth);
    assert.equal(first.request.method, 'POST');
    assert.equal(first.request.url, `${inbox.url}?n=0`);
    assert.deepEqual(first.request.queryString, [{ name: 'n', value: '0' }]);
    assert.equal(first.request.postData?.text, deliveries[0]?.body);
    assert.equal(first.request.postData?.mimeType, 'application/json');
    assert.equal(first.request.bodySize, Buffer.byteLength(deliveries[0]?.body ?? ''));
    assert.match(first.request.headers.find((h) => h.name.toLowerCase() === 'x-service-signature')?.value ?? '', /masked/);
    assert.equal(first.response.status, 200);
    assert.equal(fourth.response.status, 400);
    assert.equal(third._qr_sandbox.signature_status, 'invalid');
    for (const entry of har.log.entries) {
      assert.ok(!Number.isNaN(Date.parse(entry.startedDateTime)));
      assert.equal(typeof entry.time, 'number');
      assert.deepEqual(entry.request.cookies, []);
      assert.equal(entry.request.headersSize, -1);
      assert.equal(typeof entry.response.content.size, 'number');
      assert.equal(typeof entry.timings.wait, 'number');
      assert.deepEqual(entry.cache, {});
    }
    const withSignature = JSON.parse((await download('format=har&include_signature=true')).text) as Har;
    assert.equal(
      withSignature.log.entries[0]?.request.headers.find((h) => h.name.toLowerCase() === 'x-service-signature')?.value,
      deliveries[0]?.signatureHeader,
    );
  });

  it('applies the list filters', async () => {
    const valid = JSON.parse((await download('signature_status=valid')).text) as JsonExport;
    assert.deepEqual(
      valid.messages.map((m) => m.uuid),
      uuids.slice(0, 2),
    );
    const checkIns = JSON.parse((await download('format=har&event_type=service_confirmation.check_in')).text) as Har;
    assert.equal(checkIns.log.entries.length, 1);
    const bad = await server.request(`/api/inboxes/uuid/${inbox.uuid}/export?organization_uuid=${server.organizationUuid}&format=xml`);
    assert.equal(bad.status, 400);
  });
});
