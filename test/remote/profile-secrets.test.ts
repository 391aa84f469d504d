import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  listProfiles,
  loadProfile,
  ProfileSecretError,
  profilesPath,
  saveProfile,
  type SecretCodec,
} from '../../server/remote/profiles.ts';
import { runCli } from '../support/cli.ts';
import { jsonBody, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

/** A codec of this test: AES-256-GCM under its own key, standing in for the desktop app's keychain. */
function testCodec(protection = 'test-keychain'): SecretCodec {
  const key = randomBytes(32);
  return {
    protection,
    description: 'the test keychain',
    async encrypt(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    async decrypt(encrypted) {
      const bytes = Buffer.from(encrypted, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});
const dataDirOfTest = () => {
  const dir = tempDataDir();
  made.push(dir);
  return dir;
};

const fileText = (dataDir: string) => fs.readFileSync(profilesPath(dataDir), 'utf8');
const stored = (dataDir: string) => (JSON.parse(fileText(dataDir)) as { profiles: Record<string, string>[] }).profiles;

describe('profile store with a secret codec', () => {
  const secret = 'S3cr3t-of-the-real-service';

  it('keeps the secret encrypted (base64), says which protection, and gives it back in clear', async () => {
    const dataDir = dataDirOfTest();
    const codec = testCodec();
    const saved = await saveProfile(
      dataDir,
      { name: 'prod', base_url: 'https://service.example', api_key: 'k1', api_secret: secret },
      codec,
    );
    assert.equal(saved.secret_protection, 'test-keychain');
    assert.ok(!fileText(dataDir).includes(secret), 'no clear secret in the file');
    const [entry] = stored(dataDir);
    assert.equal(entry?.secret_protection, 'test-keychain');
    assert.match(entry?.api_secret_encrypted ?? '', /^[A-Za-z0-9+/]+=*$/);
    assert.equal(entry?.api_secret, undefined);
    assert.equal(fs.statSync(profilesPath(dataDir)).mode & 0o777, 0o600);
    assert.equal((await loadProfile(dataDir, 'prod', codec))?.api_secret, secret);
    assert.deepEqual(
      listProfiles(dataDir).map((p) => [p.name, p.secret_protection]),
      [['prod', 'test-keychain']],
    );
  });

  it('headless, an encrypted secret is a clear error, not garbage; other profiles still work and stay encrypted', async () => {
    const dataDir = dataDirOfTest();
    const codec = testCodec();
    await saveProfile(dataDir, { name: 'desktop', base_url: 'https://service.example', api_key: 'k1', api_secret: secret }, codec);
    await saveProfile(dataDir, { name: 'cli', base_url: 'https://other.example', api_key: 'k2', api_secret: 'clear-one' });
    await assert.rejects(loadProfile(dataDir, 'desktop'), (error: unknown) => {
      assert.ok(error instanceof ProfileSecretError);
      assert.match(error.message, /The secret of profile "desktop" was encrypted by the QR Sandbox desktop app \(test-keychain\)/);
      assert.match(error.message, /qr-sandbox profile add desktop --url https:\/\/service\.example --key API_KEY:API_SECRET/);
      return true;
    });
    assert.equal((await loadProfile(dataDir, 'cli'))?.api_secret, 'clear-one');
    assert.equal(
      stored(dataDir).find((p) => p.name === 'desktop')?.secret_protection,
      'test-keychain',
      'the headless write kept it encrypted',
    );
  });

  it('another keychain cannot decrypt it and says so', async () => {
    const dataDir = dataDirOfTest();
    await saveProfile(dataDir, { name: 'prod', base_url: 'https://service.example', api_key: 'k1', api_secret: secret }, testCodec());
    await assert.rejects(
      loadProfile(dataDir, 'prod', testCodec()),
      /could not be decrypted with the test keychain .*saved by another user or on another computer/,
    );
  });

  it('with a codec, a clear-text profile is read and saved again encrypted', async () => {
    const dataDir = dataDirOfTest();
    await saveProfile(dataDir, { name: 'old', base_url: 'https://service.example', api_key: 'k1', api_secret: secret });
    assert.equal(stored(dataDir)[0]?.api_secret, secret, 'saved headless: clear text');
    const codec = testCodec();
    assert.equal((await loadProfile(dataDir, 'old', codec))?.api_secret, secret);
    assert.ok(!fileText(dataDir).includes(secret));
    assert.equal(stored(dataDir)[0]?.secret_protection, 'test-keychain');
    assert.equal((await loadProfile(dataDir, 'old', codec))?.api_secret, secret);
  });
});

describe('profile secrets through a real server and the command line', () => {
  let remote: TestServer;
  let remoteCredential: [string, string];
  before(async () => {
    remote = await startTestServer();
    const [key = '', value = ''] = remote.auth.slice('Bearer '.length).split(':');
    remoteCredential = [key, value];
  });
  after(() => remote.stop());

  it('a server with a codec encrypts what it saves, and its proxy uses the decrypted secret', async () => {
    const dataDir = dataDirOfTest();
    const codec = testCodec();
    const local = await startTestServer({ dataDir, secretCodec: codec });
    try {
      const saved = await local.request(
        '/api/profiles/remote',
        jsonBody({ base_url: remote.url, api_key: remoteCredential[0], api_secret: remoteCredential[1] }, 'PUT'),
      );
      assert.equal(saved.status, 200);
      assert.equal(((await saved.json()) as { secret_protection: string }).secret_protection, 'test-keychain');
      assert.ok(!fileText(dataDir).includes(remoteCredential[1]));
      const listed = await local.request('/api/profiles');
      assert.deepEqual(
        ((await listed.json()) as { items: { name: string; secret_protection: string }[] }).items.map((p) => [p.name, p.secret_protection]),
        [['remote', 'test-keychain']],
      );
      const proxied = await local.request(`/api/remote/remote/api/background-tasks?organization_uuid=${remote.organizationUuid}`);
      assert.equal(proxied.status, 200, await proxied.clone().text());
    } finally {
      await local.stop();
    }

    // The same data folder headless: listed, but not usable, in plain words.
    const headless = await startTestServer({ dataDir });
    try {
      const listed = (await (await headless.request('/api/profiles')).json()) as { items: { name: string }[] };
      assert.deepEqual(
        listed.items.map((p) => p.name),
        ['remote'],
      );
      const refused = await headless.request(`/api/remote/remote/api/background-tasks?organization_uuid=${remote.organizationUuid}`);
      assert.equal(refused.status, 409);
      assert.match(((await refused.json()) as { error: { message: string } }).error.message, /encrypted by the QR Sandbox desktop app/);
    } finally {
      await headless.stop();
    }

    const cli = await runCli(['tasks', 'watch', 'some-task', '--profile', 'remote', '--data-dir', dataDir]);
    assert.equal(cli.code, 2);
    assert.match(
      cli.stderr,
      /The secret of profile "remote" was encrypted by the QR Sandbox desktop app \(test-keychain\), and the command line and the headless server cannot decrypt it/,
    );
    const list = await runCli(['profile', 'list', '--data-dir', dataDir]);
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^remote\t/m);
    assert.match(list.stderr, /Saved by the desktop app, with the secret encrypted by the system keychain: remote\./);
  });

  it('a server with a codec encrypts clear-text profiles the command line saved, at start', async () => {
    const dataDir = dataDirOfTest();
    const added = await runCli([
      'profile',
      'add',
      'field',
      '--url',
      remote.url,
      '--key',
      remoteCredential.join(':'),
      '--data-dir',
      dataDir,
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /Warning: its secret is stored unencrypted/);
    assert.ok(fileText(dataDir).includes(remoteCredential[1]));
    const local = await startTestServer({ dataDir, secretCodec: testCodec() });
    try {
      assert.ok(!fileText(dataDir).includes(remoteCredential[1]), 'encrypted at start');
      assert.equal(stored(dataDir)[0]?.secret_protection, 'test-keychain');
      const proxied = await local.request(`/api/remote/field/api/background-tasks?organization_uuid=${remote.organizationUuid}`);
      assert.equal(proxied.status, 200);
    } finally {
      await local.stop();
    }
  });
});
