import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decrypt } from '../../server/wire-format/cipher.ts';
import { open } from '../../server/wire-format/open.ts';
import { WebhookCryptoError } from '../../server/wire-format/problems.ts';
import { seal } from '../../server/wire-format/seal.ts';
import { sign, verify } from '../../server/wire-format/signature.ts';

const secretArb = fc.string({ minLength: 1, maxLength: 80 });
const plaintextArb = fc.oneof(
  fc.json(),
  fc.string({ maxLength: 2000 }),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

describe('webhook crypto properties', () => {
  it('round-trips: open(seal(plaintext, secret)) gives the plaintext back, verified', () => {
    fc.assert(
      fc.property(plaintextArb, secretArb, (plaintext, secret) => {
        const sealed = seal(plaintext, secret);
        const opened = open(sealed.body, sealed.signatureHeader, secret);
        assert.equal(opened.plaintext, plaintext);
        assert.equal(opened.verified, true);
        assert.equal(sealed.signature, sign(plaintext, secret));
        assert.match(sealed.signature, /^[0-9a-f]{64}$/);
      }),
      { numRuns: 300 },
    );
  });

  it('gives each attempt a fresh IV: the same event never encrypts to the same payload twice', () => {
    fc.assert(
      fc.property(fc.json(), secretArb, (plaintext, secret) => {
        assert.notEqual(seal(plaintext, secret).body, seal(plaintext, secret).body);
      }),
      { numRuns: 100 },
    );
  });

  it('detects tampering with any byte of the payload: decryption fails or the plaintext no longer verifies', () => {
    fc.assert(
      fc.property(fc.json(), secretArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (plaintext, secret, at, flip) => {
        const sealed = seal(plaintext, secret);
        const raw = Buffer.from((JSON.parse(sealed.body) as { payload: string }).payload, 'base64');
        const index = at % raw.length;
        raw[index] = (raw[index] ?? 0) ^ flip;
        let tamperedPlaintext: Buffer;
        try {
          tamperedPlaintext = decrypt(raw.toString('base64'), sealed.signature);
        } catch (error) {
          assert.ok(error instanceof WebhookCryptoError);
          return;
        }
        assert.equal(verify(tamperedPlaintext, secret, sealed.signature), false);
      }),
      { numRuns: 300 },
    );
  });

  it('never verifies under another secret or a changed signature', () => {
    fc.assert(
      fc.property(fc.json(), secretArb, secretArb, (plaintext, secret, other) => {
        fc.pre(secret !== other);
        const sealed = seal(plaintext, secret);
        assert.equal(open(sealed.body, sealed.signatureHeader, other).verified, false);
        assert.equal(open(sealed.body, sealed.signatureHeader).verified, null, 'no secret: unknown, not valid');
      }),
      { numRuns: 200 },
    );
  });
});
