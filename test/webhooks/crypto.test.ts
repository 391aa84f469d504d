import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { decrypt, deriveKey, encrypt } from '../../server/wire-format/cipher.ts';
import { open } from '../../server/wire-format/open.ts';
import { WebhookCryptoError } from '../../server/wire-format/problems.ts';
import { seal } from '../../server/wire-format/seal.ts';
import { parseSignature, sign, verify } from '../../server/wire-format/signature.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

const secret = 'b3f0c1d2e3a4958677889900aabbccddeeff00112233445566778899aabbccdd';
const plaintext = JSON.stringify({
  id: 'evt_1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  type: 'service_confirmation.check_in',
  data: { note: 'Gate code 4711 – café ✓' },
});

function tempFile(contents: Buffer | string): string {
  const dir = freshDir();
  const file = path.join(dir, 'data');
  fs.writeFileSync(file, contents);
  return file;
}

function openssl(args: string[], input?: Buffer): Buffer {
  return execFileSync('openssl', args, { input });
}

describe('webhook crypto against the openssl command line', () => {
  test('the signature is openssl dgst -sha256 -hmac over the plaintext bytes, lowercase hex', () => {
    const out = openssl(['dgst', '-sha256', '-hmac', secret, '-r', tempFile(plaintext)]).toString('utf8');
    const expected = out.split(' ')[0];
    assert.equal(sign(plaintext, secret), expected);
    assert.match(sign(plaintext, secret), /^[0-9a-f]{64}$/);
  });

  test('encryption equals openssl enc -aes-256-cbc with the first 32 hex characters as the key', () => {
    const signature = sign(plaintext, secret);
    const iv = randomBytes(16);
    const payload = Buffer.from(encrypt(plaintext, signature, iv), 'base64');
    assert.deepEqual(payload.subarray(0, 16), iv);
    const keyHex = Buffer.from(signature.slice(0, 32), 'ascii').toString('hex');
    const expected = openssl(['enc', '-aes-256-cbc', '-K', keyHex, '-iv', iv.toString('hex'), '-in', tempFile(plaintext)]);
    assert.deepEqual(payload.subarray(16), expected);
  });

  test('openssl decrypts what we encrypt, and we decrypt what openssl encrypts', () => {
    const signature = sign(plaintext, secret);
    const keyHex = deriveKey(signature).toString('hex');
    const ours = Buffer.from(seal(plaintext, secret).body.match(/"payload":"([^"]+)"/)?.[1] ?? '', 'base64');
    const decrypted = openssl([
      'enc',
      '-d',
      '-aes-256-cbc',
      '-K',
      keyHex,
      '-iv',
      ours.subarray(0, 16).toString('hex'),
      '-in',
      tempFile(ours.subarray(16)),
    ]);
    assert.equal(decrypted.toString('utf8'), plaintext);

    const iv = randomBytes(16);
    const theirs = openssl(['enc', '-aes-256-cbc', '-K', keyHex, '-iv', iv.toString('hex'), '-in', tempFile(plaintext)]);
    const payload = Buffer.concat([iv, theirs]).toString('base64');
    assert.equal(decrypt(payload, signature).toString('utf8'), plaintext);
  });
});

describe('webhook crypto functions', () => {
  test('seal uses a fresh IV each time, and open gets the plaintext back and verifies it', () => {
    const a = seal(plaintext, secret);
    const b = seal(plaintext, secret);
    assert.notEqual(a.body, b.body);
    assert.equal(a.signatureHeader, `sha256=${a.signature}`);
    const opened = open(a.body, a.signatureHeader, secret);
    assert.equal(opened.plaintext, plaintext);
    assert.deepEqual(opened.json, JSON.parse(plaintext));
    assert.equal(opened.verified, true);
    assert.equal(open(a.body, a.signature).verified, null);
    assert.equal(open(a.body, a.signature, 'another secret').verified, false);
  });

  test('verify refuses a tampered plaintext and a malformed signature', () => {
    const signature = sign(plaintext, secret);
    assert.equal(verify(plaintext, secret, signature), true);
    assert.equal(verify(`${plaintext} `, secret, signature), false);
    assert.equal(verify(plaintext, secret, 'sha256=xyz'), false);
  });

  test('errors name the step that failed', () => {
    // A fixed IV keeps the wrong-key case deterministic (random bytes could end in valid padding).
    const { body, signature } = seal(plaintext, secret, Buffer.alloc(16, 7));
    const payload = (JSON.parse(body) as { payload: string }).payload;
    const problem = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        assert.ok(error instanceof WebhookCryptoError);
        return error.problem;
      }
      return 'none';
    };
    assert.equal(
      problem(() => parseSignature('md5=abc')),
      'MALFORMED_SIGNATURE',
    );
    assert.equal(
      problem(() => decrypt('not base64!', signature)),
      'PAYLOAD_NOT_BASE64',
    );
    assert.equal(
      problem(() => decrypt(payload.slice(0, 20), signature)),
      'PAYLOAD_TOO_SHORT',
    );
    assert.equal(
      problem(() => decrypt(Buffer.concat([Buffer.from(payload, 'base64'), Buffer.alloc(3)]).toString('base64'), signature)),
      'PAYLOAD_NOT_BLOCK_ALIGNED',
    );
    assert.equal(
      problem(() => decrypt(payload, sign('other', secret))),
      'DECRYPTION_FAILED',
    );
    assert.equal(
      problem(() => decrypt(payload, signature)),
      'none',
    );
  });
});
