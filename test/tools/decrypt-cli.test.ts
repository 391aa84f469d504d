import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../support/cli.ts';
import { craft, envelope, SECRET } from '../support/deliveries.ts';

describe('qr-sandbox decrypt', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-decrypt-cli-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const value = envelope();
  const d = craft(value);
  const bodyFile = path.join(dir, 'body.json');
  fs.writeFileSync(bodyFile, d.body);

  it('reads the body from a file, prints the envelope, exits 0 when the signature is valid', async () => {
    const result = await runCli(['decrypt', bodyFile, '--signature', d.signatureHeader, '--secret', SECRET]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), value);
    assert.match(result.stderr, /Signature: valid/);
  });

  it('reads the body from stdin; exits 1 for a wrong secret and names the reason', async () => {
    const result = await runCli(['decrypt', '--signature', d.signature, '--secret', 'not-the-secret'], { input: d.body });
    assert.equal(result.code, 1);
    assert.deepEqual(JSON.parse(result.stdout), value, 'still prints what it decrypted');
    assert.match(result.stderr, /Signature: INVALID/);
    assert.match(result.stderr, /WRONG_SECRET/);
  });

  it('exits 3 when it decrypts but has no secret to verify with', async () => {
    const result = await runCli(['decrypt', '-', '--signature', d.signatureHeader], { input: d.payload });
    assert.equal(result.code, 3);
    assert.deepEqual(JSON.parse(result.stdout), value);
    assert.match(result.stderr, /not verified \(no --secret given\)/);
  });

  it('prints the whole result with --full', async () => {
    const result = await runCli(['decrypt', bodyFile, '--signature', d.signatureHeader, '--secret', SECRET, '--full']);
    assert.equal(result.code, 0);
    const full = JSON.parse(result.stdout) as { plaintext: string; json: unknown; verified: boolean; hints: unknown[] };
    assert.equal(full.plaintext, d.plaintext);
    assert.equal(full.verified, true);
    assert.deepEqual(full.hints, []);
  });

  it("exits 1 with the doctor's hint when the payload cannot be decrypted, printing nothing on stdout", async () => {
    const urlSafe = d.payload.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const result = await runCli(['decrypt', '--signature', d.signatureHeader, '--secret', SECRET], {
      input: JSON.stringify({ payload: urlSafe }),
    });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /Cannot decrypt: /);
    assert.match(result.stderr, /hint \(PAYLOAD_IS_BASE64URL, payload\): .*Repaired, it decrypts/);

    const garbage = await runCli(['decrypt', '--signature', 'sha256=xyz'], { input: 'hello' });
    assert.equal(garbage.code, 1);
    assert.match(garbage.stderr, /hint \(SIGNATURE_MALFORMED, signature\)/);
  });

  it('refuses a missing --signature or an unreadable file with a one-line message', async () => {
    const noSig = await runCli(['decrypt', bodyFile]);
    assert.equal(noSig.code, 2);
    assert.match(noSig.stderr, /decrypt needs --signature/);
    const missing = await runCli(['decrypt', path.join(dir, 'nope.json'), '--signature', d.signature]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read .*nope\.json: ENOENT/);
  });
});
