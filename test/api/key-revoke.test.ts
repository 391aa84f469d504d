import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath } from '../../server/db/database.ts';
import { bearer, jsonBody, startTestServer, type TestServer } from '../support/server.ts';

interface IssuedKey {
  api_key: string;
  api_secret: string;
}

/** A verified key is remembered only while the database is unchanged (any revoke is a change), so a revoke counts from the very next request. */
describe('a revoked API key is refused on the very next request', () => {
  let server: TestServer;
  const paths = () => [`/api/background-tasks?organization_uuid=${server.organizationUuid}`, '/api/session'];

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  async function newKey(): Promise<string> {
    const res = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'revoke check' }));
    assert.equal(res.status, 201);
    const key = (await res.json()) as IssuedKey;
    // Used (and so verified) many times first, as a polling client would.
    for (let i = 0; i < 20; i++)
      for (const p of paths()) assert.equal((await server.request(p, { headers: { authorization: bearer(key) } })).status, 200);
    return bearer(key);
  }

  async function expectRefused(auth: string) {
    for (const p of paths()) {
      const res = await server.request(p, { headers: { authorization: auth } });
      assert.equal(res.status, 401, p);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED');
    }
  }

  it('a key verified many times is still refused with a wrong secret (what is remembered is the whole credential)', async () => {
    const auth = await newKey();
    const wrong = `${auth.slice(0, -4)}${auth.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    await expectRefused(wrong);
    for (const p of paths()) assert.equal((await server.request(p, { headers: { authorization: auth } })).status, 200);
  });

  it('after DELETE /api/api-keys/{api_key}', async () => {
    const auth = await newKey();
    const apiKey = auth.slice('Bearer '.length).split(':')[0] ?? '';
    assert.equal((await server.request(`/api/api-keys/${apiKey}`, { method: 'DELETE' })).status, 204);
    await expectRefused(auth);
  });

  it('after a revoke written by another connection to the database file (the CLI, another process)', async () => {
    const auth = await newKey();
    const apiKey = auth.slice('Bearer '.length).split(':')[0] ?? '';
    const other = new SQLite(databasePath(server.dataDir));
    try {
      other.pragma('busy_timeout = 5000');
      assert.equal(other.prepare('update api_keys set revoked_on = ? where api_key = ?').run(new Date().toISOString(), apiKey).changes, 1);
    } finally {
      other.close();
    }
    await expectRefused(auth);
  });

  it('after the key row is deleted, or its secret replaced (a rotation)', async () => {
    const deleted = await newKey();
    const rotated = await newKey();
    const other = new SQLite(databasePath(server.dataDir));
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare('delete from api_keys where api_key = ?').run(deleted.slice('Bearer '.length).split(':')[0]);
      other
        .prepare('update api_keys set secret_hash = ? where api_key = ?')
        .run('0'.repeat(64), rotated.slice('Bearer '.length).split(':')[0]);
    } finally {
      other.close();
    }
    await expectRefused(deleted);
    await expectRefused(rotated);
  });
});
