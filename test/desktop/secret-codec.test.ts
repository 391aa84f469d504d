import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SAFE_STORAGE_PROTECTION, safeStorageCodec } from '../../main/secret-codec.ts';
import { FakeSafeStorage } from './support/fake-electron.ts';

describe("main's secret codec on Electron's safeStorage (fake electron)", () => {
  it('encrypts to base64 that does not contain the secret, and decrypts it back', async () => {
    const choice = await safeStorageCodec(new FakeSafeStorage(), 'linux');
    const codec = choice.codec;
    assert.ok(codec, choice.reason);
    assert.equal(codec.protection, SAFE_STORAGE_PROTECTION);
    const encrypted = await codec.encrypt('my-api-secret');
    assert.match(encrypted, /^[A-Za-z0-9+/]+=*$/);
    assert.ok(!Buffer.from(encrypted, 'base64').toString('latin1').includes('my-api-secret'));
    assert.equal(await codec.decrypt(encrypted), 'my-api-secret');
  });

  it("another user's keychain cannot decrypt it", async () => {
    const mine = (await safeStorageCodec(new FakeSafeStorage(), 'darwin')).codec;
    const theirs = (await safeStorageCodec(new FakeSafeStorage(), 'darwin')).codec;
    assert.ok(mine && theirs);
    await assert.rejects(theirs.decrypt(await mine.encrypt('secret')), /Error while decrypting/);
  });

  it('gives no codec, with the reason, when encryption is unavailable or Linux has no secret store', async () => {
    const unavailable = await safeStorageCodec(new FakeSafeStorage({ available: false }), 'win32');
    assert.equal(unavailable.codec, undefined);
    assert.match(unavailable.reason ?? '', /not available on this computer/);

    const basicText = await safeStorageCodec(new FakeSafeStorage({ backend: 'basic_text' }), 'linux');
    assert.equal(basicText.codec, undefined);
    assert.match(basicText.reason ?? '', /no secret store .* fixed password/);

    // The backend is a Linux notion; elsewhere the OS keychain is used.
    assert.ok((await safeStorageCodec(new FakeSafeStorage({ backend: 'basic_text' }), 'darwin')).codec);
  });
});
