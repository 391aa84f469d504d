import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { craft, encrypt, encryptWithKey, envelope, formatSignatureHeader, SECRET, sign } from '../support/deliveries.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface DecryptAnswer {
  plaintext: string;
  json: unknown;
  verified: boolean | null;
  hints: Array<{ code: string; field: string; message: string }>;
}
interface ErrorAnswer {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

describe('POST /api/tools/decrypt and its doctor', () => {
  const server = suiteServer();

  const call = async (input: Record<string, unknown>, auth?: string) => {
    const init = jsonBody(input);
    const res = await server.request('/api/tools/decrypt', auth ? { ...init, headers: { ...init.headers, authorization: auth } } : init);
    return { status: res.status, body: (await res.json()) as DecryptAnswer & ErrorAnswer };
  };
  const codesOf = (body: DecryptAnswer & ErrorAnswer) => (body.hints ?? []).map((h) => h.code);
  const detailsText = (body: ErrorAnswer) => (body.error.details ?? []).map((d) => `${d.path} ${d.message}`).join('\n');

  it('decrypts a body and verifies it with the secret', async () => {
    const value = envelope();
    const d = craft(value);
    const { status, body } = await call({ body: d.body, signature: d.signatureHeader, secret: SECRET });
    assert.equal(status, 200);
    assert.equal(body.plaintext, d.plaintext);
    assert.deepEqual(body.json, value);
    assert.equal(body.verified, true);
    assert.deepEqual(body.hints, []);
  });

  it('takes the bare payload and bare hex, and answers verified null without a secret', async () => {
    const d = craft(envelope());
    const { status, body } = await call({ payload: d.payload, signature: d.signature });
    assert.equal(status, 200);
    assert.equal(body.plaintext, d.plaintext);
    assert.equal(body.verified, null);
    assert.deepEqual(codesOf(body), ['NO_SECRET']);
  });

  it('says a body cut off in the copy looks cut off, and where other JSON goes wrong', async () => {
    const d = craft(envelope());
    const cut = await call({ body: d.body.slice(0, d.body.length - 10), signature: d.signatureHeader });
    assert.equal(cut.status, 400);
    assert.match(detailsText(cut.body) + cut.body.error.message, /looks cut off: it ends before its JSON is closed/);
    const wrong = await call({ body: '{"payload": abc}', signature: d.signatureHeader });
    assert.equal(wrong.status, 400);
    assert.match(detailsText(wrong.body) + wrong.body.error.message, /not valid JSON \(Not valid JSON at line 1, column 13/);
  });

  it('says invalid for a wrong secret, and explains whitespace in the secret', async () => {
    const d = craft(envelope());
    const wrong = await call({ body: d.body, signature: d.signatureHeader, secret: 'another-webhooks-secret' });
    assert.equal(wrong.status, 200);
    assert.equal(wrong.body.verified, false);
    assert.deepEqual(codesOf(wrong.body), ['WRONG_SECRET']);

    const padded = await call({ body: d.body, signature: d.signatureHeader, secret: `${SECRET}\n` });
    assert.equal(padded.body.verified, false, 'strict: the secret as given does not verify');
    assert.deepEqual(codesOf(padded.body), ['SECRET_WHITESPACE']);
  });

  it('accepts uppercase hex but notes it', async () => {
    const d = craft(envelope());
    const { status, body } = await call({
      body: d.body,
      signature: d.signatureHeader.replace(d.signature, d.signature.toUpperCase()),
      secret: SECRET,
    });
    assert.equal(status, 200);
    assert.equal(body.verified, true);
    assert.deepEqual(codesOf(body), ['UPPERCASE_HEX']);
  });

  it('spots a payload encrypted with a key from uppercase hex, or from the digest bytes', async () => {
    const plaintext = JSON.stringify(envelope());
    const signature = sign(plaintext, SECRET);
    const upper = encryptWithKey(plaintext, Buffer.from(signature.slice(0, 32).toUpperCase(), 'ascii'));
    const a = await call({ payload: upper, signature, secret: SECRET });
    assert.equal(a.status, 400);
    assert.equal(a.body.error.code, 'VALIDATION_ERROR');
    assert.match(detailsText(a.body), /body\.payload KEY_FROM_UPPERCASE_HEX/);

    const digestBytes = encryptWithKey(plaintext, Buffer.from(signature, 'hex'));
    const b = await call({ payload: digestBytes, signature, secret: SECRET });
    assert.equal(b.status, 400);
    assert.match(detailsText(b.body), /KEY_FROM_DIGEST_BYTES/);
  });

  it('spots a signature sent as base64 of the raw digest, and says the hex form decrypts', async () => {
    const d = craft(envelope());
    const base64 = Buffer.from(d.signature, 'hex').toString('base64');
    const { status, body } = await call({ body: d.body, signature: `sha256=${base64}` });
    assert.equal(status, 400);
    assert.match(detailsText(body), /body\.signature SIGNATURE_IS_BASE64: .*With that value the payload decrypts/);

    const raw = Buffer.from(d.signature, 'hex').toString('latin1');
    const rawAnswer = await call({ body: d.body, signature: raw });
    assert.equal(rawAnswer.status, 400);
    assert.match(detailsText(rawAnswer.body), /SIGNATURE_IS_RAW_DIGEST/);

    const edgy = '\t' + 'x'.repeat(30) + ' ';
    const edgyAnswer = await call({ body: d.body, signature: edgy });
    assert.match(detailsText(edgyAnswer.body), /SIGNATURE_IS_RAW_DIGEST/, 'a digest whose text begins or ends with whitespace bytes');
  });

  it('spots base64url, "+" turned into spaces, and a SHA-1 length signature', async () => {
    const d = craft(envelope({ id: 'evt_00000000-0000-4000-8000-00000000000a', data: { uuid: 'fixed', status: 'CHECK_IN' } }));
    assert.match(d.payload, /\+/, 'this fixed plaintext and IV give a payload with +');
    assert.match(d.payload, /\//, 'and with /');
    const url = d.payload.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const a = await call({ payload: url, signature: d.signature });
    assert.equal(a.status, 400);
    assert.match(detailsText(a.body), /PAYLOAD_IS_BASE64URL: .*Repaired, it decrypts/);

    const spaced = await call({ payload: d.payload.replace(/\+/g, ' '), signature: d.signature });
    assert.equal(spaced.status, 400);
    assert.match(detailsText(spaced.body), /PAYLOAD_PLUS_AS_SPACE: .*Repaired, it decrypts/);

    const sha1 = await call({ payload: d.payload, signature: `sha256=${d.signature.slice(0, 40)}` });
    assert.equal(sha1.status, 400);
    assert.match(detailsText(sha1.body), /SIGNATURE_WRONG_LENGTH: .*HMAC-SHA1/);
  });

  it('spots a body re-serialised between signing and encrypting', async () => {
    const value = envelope();
    const compact = JSON.stringify(value);
    const signature = sign(compact, SECRET);
    const payload = encrypt(JSON.stringify(value, null, 2), signature, Buffer.alloc(16, 7));
    const { status, body } = await call({ payload, signature: formatSignatureHeader(signature), secret: SECRET });
    assert.equal(status, 200);
    assert.equal(body.verified, false);
    assert.deepEqual(body.json, value);
    assert.deepEqual(codesOf(body), ['BODY_RESERIALISED']);
  });

  it('says the signature belongs to another delivery when the key does not fit', async () => {
    const a = craft(envelope({ id: 'evt_00000000-0000-4000-8000-000000000001' }));
    const b = craft(envelope({ id: 'evt_00000000-0000-4000-8000-000000000002' }));
    const { status, body } = await call({ body: a.body, signature: b.signatureHeader, secret: SECRET });
    assert.equal(status, 400);
    assert.match(body.error.message, /^Cannot decrypt: /);
    assert.match(detailsText(body), /SIGNATURE_OF_ANOTHER_DELIVERY/);
  });

  it('refuses input that names neither or both of payload and body, and garbage bodies, with 400', async () => {
    const d = craft(envelope());
    for (const input of [{ signature: d.signature }, { payload: d.payload, body: d.body, signature: d.signature }, { body: d.body }]) {
      const { status, body } = await call(input);
      assert.equal(status, 400, JSON.stringify(input));
      assert.equal(body.error.code, 'VALIDATION_ERROR');
    }
    for (const garbage of ['', 'not base64 at all!', '{"payload": 42}', '{broken json', 'AAAA']) {
      const { status, body } = await call({ body: garbage, signature: d.signatureHeader });
      assert.equal(status, 400, garbage);
      assert.ok((body.error.details ?? []).length > 0, `hints for ${garbage}`);
    }
  });

  it('is open to a viewer key', async () => {
    const keyRes = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'reader' }));
    const key = (await keyRes.json()) as { api_key: string; api_secret: string };
    const d = craft(envelope());
    const { status, body } = await call(
      { body: d.body, signature: d.signatureHeader, secret: SECRET },
      `Bearer ${key.api_key}:${key.api_secret}`,
    );
    assert.equal(status, 200);
    assert.equal(body.verified, true);
  });
});
