import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { jsonProblem } from '../../common/json-problem.ts';
import { open } from '../../server/wire-format/open.ts';
import { craft, deliveryHeaders, envelope, SECRET } from '../support/deliveries.ts';
import { createInbox, deliver, getMessage, startCaptureServer, type CaptureServer, type MessageView } from '../support/inboxes.ts';
import { bearer, jsonBody, startTestServer, type TestServer } from '../support/server.ts';

interface Verdict {
  decrypted: boolean;
  problem: string | null;
  signature_status: string;
  hint: string | null;
  label: string;
}
interface Options {
  target_url: string;
  secrets: Array<{ label: string; source: string; verified_message: boolean }>;
  default_secret_label: string | null;
  plaintext: string | null;
  variants: Array<{ id: string; title: string; description: string; verdict: Verdict }>;
}
interface Result {
  target_url: string;
  variant: string | null;
  secret: { source: string; label: string };
  verdict: Verdict;
  hints: Array<{ code: string }>;
  sent: { headers: Record<string, string>; body: string; plaintext: string };
  answer: { status_code: number; headers: Record<string, string>; body_excerpt: string | null; duration_ms: number };
  inbox_message_uuid: string | null;
}
interface ErrorAnswer {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

const resendPath = (inbox: string, message: string) => `/api/inboxes/uuid/${inbox}/messages/${message}/resend`;

function pairs(rawHeaders: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) out.push([rawHeaders[i] ?? '', rawHeaders[i + 1] ?? '']);
  return out;
}

describe('edit, re-seal and send (resend)', () => {
  let server: TestServer;
  let app: CaptureServer;
  let inbox: { uuid: string; url: string };
  let original: MessageView;
  let sentEnvelope: Record<string, unknown>;

  before(async () => {
    server = await startTestServer({ webhookTimeoutMs: 1500, webhookConnectTimeoutMs: 1000 });
    app = await startCaptureServer((req, res) => {
      if (req.url.startsWith('/hang')) return; // never answers
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(202, { 'content-type': 'application/json', 'x-app': 'mine' });
      res.end(JSON.stringify({ accepted: true, bytes: req.body.length }));
    });
    inbox = await createInbox(server, { name: 'resend', secrets: [SECRET] });
    sentEnvelope = envelope();
    const d = craft(sentEnvelope);
    const delivered = await deliver(inbox.url, d.body, deliveryHeaders(d));
    original = await getMessage(server, inbox.uuid, delivered.messageUuid);
    assert.equal(original.signature_status, 'valid');
  });
  after(async () => {
    await app.close();
    await server.stop();
  });

  const post = (body: Record<string, unknown>, message = original.uuid) => server.request(resendPath(inbox.uuid, message), jsonBody(body));
  async function resend(body: Record<string, unknown>, message = original.uuid): Promise<Result> {
    const res = await post(body, message);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Result;
  }
  async function refused(body: Record<string, unknown>, status: number, message = original.uuid): Promise<ErrorAnswer> {
    const res = await post(body, message);
    assert.equal(res.status, status, await res.clone().text());
    return (await res.json()) as ErrorAnswer;
  }

  it('lists the known secrets (labels only), the plaintext to edit and every variant with its verdict', async () => {
    const res = await server.request(resendPath(inbox.uuid, original.uuid));
    assert.equal(res.status, 200);
    const options = (await res.json()) as Options;
    assert.equal(options.target_url, inbox.url);
    assert.deepEqual(options.secrets, [{ label: 'inbox secret', source: 'inbox', verified_message: true }]);
    assert.equal(options.default_secret_label, 'inbox secret');
    assert.equal(options.plaintext, JSON.stringify(sentEnvelope));
    assert.ok(!JSON.stringify(options).includes(SECRET), 'never the secret itself');
    const variants = 'wrong_secret flipped_bit tampered_ciphertext truncated_payload missing_signature signature_base64';
    assert.equal(
      options.variants.map((v) => v.id).join(' '),
      `${variants} key_from_uppercase_hex payload_base64url reserialised_body stale_envelope`,
    );
    const tampered = options.variants.find((v) => v.id === 'tampered_ciphertext');
    assert.equal(tampered?.verdict.label, 'Not decrypted · DECRYPTION_FAILED · SIGNATURE_OF_ANOTHER_DELIVERY');
  });

  it('re-seals the edited JSON to the inbox: the new message decrypts, verifies and carries the edit', async () => {
    const edited = { ...sentEnvelope, data: { ...(sentEnvelope.data as object), note: 'Edited: gate code 9999 ✓' } };
    const result = await resend({ plaintext: JSON.stringify(edited, null, 2) });
    assert.equal(result.answer.status_code, 200);
    assert.equal(result.target_url, inbox.url);
    assert.deepEqual(result.secret, { source: 'inbox', label: 'inbox secret' });
    assert.equal(result.verdict.label, 'Decrypted · signature valid · no hint');
    assert.equal(result.sent.plaintext, JSON.stringify(edited), 'sent as compact JSON, as the service sends it');
    assert.ok(result.inbox_message_uuid);

    const message = await getMessage(server, inbox.uuid, result.inbox_message_uuid);
    assert.equal(message.decrypted, true);
    assert.equal(message.signature_status, 'valid');
    assert.equal(message.verified_with, 'inbox secret');
    assert.deepEqual(message.envelope, edited);
    assert.equal(message.attempt, 1, 'a new delivery, known from the sandbox records');
    assert.match(message.delivery_id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(message.headers['x-sandbox-attempt'], undefined, 'no header the service does not send');
    assert.equal(message.duplicate_of, original.uuid, 'the same event id: the inbox sees a duplicate');
    assert.equal(message.duplicate_by, 'event_id');
  });

  it('sends to a local app with exactly the headers of a delivery; its signature verifies with the secret', async () => {
    const edited = { ...sentEnvelope, type: 'service_confirmation.delivery', data: { status: 'DELIVERY', note: 'to my app' } };
    const before = app.requests.length;
    const result = await resend({ plaintext: JSON.stringify(edited), target_url: `${app.url}/webhooks?x=1` });
    const [arrived] = (await app.waitFor(before + 1)).slice(before);
    assert.ok(arrived);
    assert.equal(arrived.method, 'POST');
    assert.equal(arrived.url, '/webhooks?x=1');
    const headers = pairs(arrived.rawHeaders);
    const named = (name: string) => headers.filter(([n]) => n === name).map(([, v]) => v);
    assert.deepEqual(named('Content-Type'), ['application/json']);
    assert.deepEqual(
      headers.map(([n]) => n.toLowerCase()).sort(),
      ['connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-service-signature'],
      'what the service sends, and HTTP itself',
    );
    assert.match(named('X-Service-Signature')[0] ?? '', /^sha256=[0-9a-f]{64}$/);
    assert.match(named('User-Agent')[0] ?? '', /^QR-Sandbox-Webhooks\//);
    assert.ok(!headers.some(([n]) => n.toLowerCase() === 'authorization'));
    assert.deepEqual(
      Object.fromEntries(headers.filter(([n]) => Object.hasOwn(result.sent.headers, n))),
      result.sent.headers,
      'the answer shows the headers as sent',
    );

    const opened = open(arrived.body.toString('utf8'), named('X-Service-Signature')[0] ?? '', SECRET);
    assert.equal(opened.verified, true);
    assert.deepEqual(opened.json, edited);
    assert.equal(arrived.body.toString('utf8'), result.sent.body);

    assert.equal(result.answer.status_code, 202);
    assert.equal(result.answer.headers['x-app'], 'mine');
    assert.equal(result.answer.headers['set-cookie'], 'a=1, b=2', 'repeated headers joined');
    assert.equal(result.answer.body_excerpt, JSON.stringify({ accepted: true, bytes: arrived.body.length }));
    assert.ok(result.answer.duration_ms >= 0);
    assert.equal(result.inbox_message_uuid, null);
  });

  it('sends every broken variant, and the inbox judges each as the variant is named (three draws each)', async () => {
    const options = (await (await server.request(resendPath(inbox.uuid, original.uuid))).json()) as Options;
    for (const variant of options.variants) {
      for (let draw = 0; draw < 3; draw += 1) {
        const result = await resend({ variant: variant.id });
        assert.deepEqual(result.verdict, variant.verdict, `${variant.id}: the doctor on the bytes sent`);
        assert.equal(result.answer.status_code, variant.verdict.decrypted ? 200 : 400, variant.id);
        assert.ok(result.inbox_message_uuid, variant.id);
        const message = await getMessage(server, inbox.uuid, result.inbox_message_uuid);
        const judged = {
          decrypted: message.decrypted,
          problem: message.decryption_problem,
          signature_status: message.signature_status,
          hint: message.hints[0]?.code ?? null,
        };
        const { label: _label, ...named } = variant.verdict;
        assert.deepEqual(judged, named, `${variant.id}: the inbox says what the variant is named by`);
        if (variant.id === 'missing_signature') assert.equal(message.headers['x-service-signature'], undefined);
        if (variant.id === 'stale_envelope') {
          const createdAt = Date.parse(String((message.envelope as { created_at: string }).created_at));
          assert.ok(Math.abs(Date.now() - 24 * 3600_000 - createdAt) < 60_000, 'created_at 24 h back');
          assert.equal((message.envelope as { id: string }).id, sentEnvelope.id, 'the event id kept');
        }
        if (variant.id === 'flipped_bit') assert.notDeepEqual(message.envelope, sentEnvelope, 'one letter changed, still JSON');
      }
    }
  });

  it('seals with a webhook registered at the inbox, or a secret typed in, and says which', async () => {
    const hook = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: server.organizationUuid, url: inbox.url, events: ['service_confirmation.check_in'], is_active: false }),
    );
    assert.equal(hook.status, 201);
    const webhook = (await hook.json()) as { uuid: string };
    const options = (await (await server.request(resendPath(inbox.uuid, original.uuid))).json()) as Options;
    assert.deepEqual(
      options.secrets.map((s) => [s.label, s.source]),
      [
        [`webhook ${webhook.uuid}`, 'webhook'],
        ['inbox secret', 'inbox'],
      ],
    );
    assert.equal(options.default_secret_label, 'inbox secret', 'the one that verified the message');

    const byWebhook = await resend({ secret_label: `webhook ${webhook.uuid}` });
    assert.deepEqual(byWebhook.secret, { source: 'webhook', label: `webhook ${webhook.uuid}` });
    const message = await getMessage(server, inbox.uuid, byWebhook.inbox_message_uuid ?? '');
    assert.equal(message.verified_with, `webhook ${webhook.uuid}`);

    const typed = await resend({ secret: 'whsec_typed_in', secret_label: 'inbox secret' });
    assert.deepEqual(typed.secret, { source: 'given', label: 'the secret you gave' });
    assert.equal((await getMessage(server, inbox.uuid, typed.inbox_message_uuid ?? '')).signature_status, 'invalid');
    assert.equal(open(typed.sent.body, typed.sent.headers['X-Service-Signature'] ?? '', 'whsec_typed_in').verified, true);

    const unknown = await refused({ secret_label: 'inbox secret 7 of 9' }, 400);
    assert.equal(unknown.error.details?.[0]?.path, 'body.secret_label');
    assert.match(unknown.error.message, /Known: webhook .*, inbox secret\./);
  });

  it('refuses JSON that does not parse, saying where, and JSON that is not an object', async () => {
    const broken = await refused({ plaintext: '{\n  "id": "evt_1",\n  "type": x\n}' }, 400);
    assert.equal(broken.error.code, 'VALIDATION_ERROR');
    assert.equal(broken.error.details?.[0]?.path, 'body.plaintext');
    assert.match(broken.error.message, /^Not valid JSON at line 3, column 11: this is not a JSON value/);
    const array = await refused({ plaintext: '[1, 2]' }, 400);
    assert.match(array.error.message, /must be a JSON object/);
    const bare = await refused({ variant: 'flipped_bit', plaintext: '{}' }, 400);
    assert.equal(bare.error.details?.[0]?.path, 'body.variant');
    const unknownVariant = await refused({ variant: 'sneaky' }, 400);
    assert.equal(unknownVariant.error.details?.[0]?.path, 'body.variant');
  });

  it('refuses unknown messages and inboxes (404), targets the webhook rules refuse (400), and viewers (403)', async () => {
    await refused({}, 404, '00000000-0000-4000-8000-000000000000');
    const other = await server.request(resendPath('00000000-0000-4000-8000-000000000000', original.uuid), jsonBody({}));
    assert.equal(other.status, 404);
    for (const target_url of ['http://example.com/hook', 'http://169.254.169.254/latest', 'ftp://127.0.0.1/x', 'not a url']) {
      const answer = await refused({ target_url }, 400);
      assert.equal(answer.error.details?.[0]?.path, 'body.target_url', target_url);
    }
    const key = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'reader' }));
    const viewer = bearer((await key.json()) as { api_key: string; api_secret: string });
    const asViewer = await server.request(resendPath(inbox.uuid, original.uuid), {
      ...jsonBody({}),
      headers: { authorization: viewer, 'content-type': 'application/json' },
    });
    assert.equal(asViewer.status, 403);
    const readOptions = await server.request(resendPath(inbox.uuid, original.uuid), { headers: { authorization: viewer } });
    assert.equal(readOptions.status, 200, 'a viewer may see the options');
  });

  it('needs a secret when the inbox knows none, and plaintext when the message was not decrypted', async () => {
    const bare = await createInbox(server, { name: 'no secrets' });
    const garbage = await deliver(bare.url, 'not a delivery', { 'content-type': 'text/plain' });
    const noSecret = await server.request(resendPath(bare.uuid, garbage.messageUuid), jsonBody({}));
    assert.equal(noSecret.status, 400);
    assert.match(((await noSecret.json()) as ErrorAnswer).error.message, /No secret is known for this inbox/);
    const noPlaintext = await server.request(resendPath(bare.uuid, garbage.messageUuid), jsonBody({ secret: SECRET }));
    assert.equal(noPlaintext.status, 400);
    assert.match(((await noPlaintext.json()) as ErrorAnswer).error.message, /was not decrypted, so there is nothing to re-seal/);

    const untyped = await server.request(
      resendPath(bare.uuid, garbage.messageUuid),
      jsonBody({ secret: SECRET, plaintext: '{"id":"evt_1"}' }),
    );
    assert.equal(untyped.status, 400);
    assert.match(((await untyped.json()) as ErrorAnswer).error.message, /no string "type"/);

    const given = await server.request(
      resendPath(bare.uuid, garbage.messageUuid),
      jsonBody({ secret: SECRET, plaintext: JSON.stringify(sentEnvelope) }),
    );
    assert.equal(given.status, 200);
    const result = (await given.json()) as Result;
    const message = await getMessage(server, bare.uuid, result.inbox_message_uuid ?? '');
    assert.equal(message.decrypted, true);
    assert.equal(message.signature_status, 'unknown', 'this inbox knows no secret to verify with');
  });

  it('answers 502 with a clear reason when the target refuses the connection or does not answer in time', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusedAnswer = await refused({ target_url: `http://127.0.0.1:${deadPort}/x` }, 502);
    assert.equal(refusedAnswer.error.code, 'BAD_GATEWAY');
    assert.match(refusedAnswer.error.message, /^No answer from http:\/\/127\.0\.0\.1:\d+\/x: Connection refused/);
    assert.match(refusedAnswer.error.message, /Check that your app is running/);

    const hung = await refused({ target_url: `${app.url}/hang` }, 502);
    assert.match(hung.error.message, /no complete answer within 1\.5 s \(timeout\)/);

    // The organization's time limit, when it chose one, as for its webhooks' deliveries.
    assert.equal((await server.request('/api/settings', jsonBody({ webhook_timeout_s: 1 }, 'PATCH'))).status, 200);
    try {
      const limited = await refused({ target_url: `${app.url}/hang` }, 502);
      assert.match(limited.error.message, /no complete answer within 1 s \(timeout\)/);
    } finally {
      await server.request('/api/settings', jsonBody({ webhook_timeout_s: null }, 'PATCH'));
    }
  });
});

describe('jsonProblem', () => {
  it('says where JSON text goes wrong, and what to fix', () => {
    assert.equal(jsonProblem('{"a": 1}'), null);
    const cases: Array<[string, number, number, RegExp]> = [
      ['{"a":}', 1, 6, /a value is expected/],
      ['{"a":1', 1, 7, /closing \} is missing/],
      ['{"a" 1}', 1, 6, /colon is missing/],
      ['[1,]', 1, 4, /a value is expected/],
      ['{"a":1} 2', 1, 9, /text after the end/],
      ['{"a":"\\q"}', 1, 6, /escape sequence/],
      ['// note\n{}', 1, 1, /comments are not JSON/],
      ['', 1, 1, /a value is expected/],
      ['{\n  "a": tru\n}', 2, 8, /not a JSON value/],
    ];
    for (const [text, line, column, what] of cases) {
      const problem = jsonProblem(text);
      assert.ok(problem, text);
      assert.deepEqual([problem.line, problem.column], [line, column], text);
      assert.match(problem.message, what, text);
    }
  });
});
