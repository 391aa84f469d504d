import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { bearer, jsonBody, startTestServer, type TestServer } from '../support/server.ts';

describe('authentication and roles (spec part 5)', () => {
  let server: TestServer;
  const tasksPath = () => `/api/background-tasks?organization_uuid=${server.organizationUuid}`;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  async function expectError(res: Response, status: number, code: string) {
    assert.equal(res.status, status);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, code);
    assert.ok(body.error.message.length > 10, 'the message explains the problem');
    return body;
  }

  it('accepts the admin credential', async () => {
    const res = await server.request(tasksPath());
    assert.equal(res.status, 200);
  });

  it('answers 401 without an Authorization header', async () => {
    const res = await fetch(`${server.url}${tasksPath()}`);
    const body = await expectError(res, 401, 'UNAUTHORIZED');
    assert.match(body.error.message, /Bearer <api_key>:<api_secret>/);
  });

  it('answers 401 for a wrong secret', async () => {
    const wrong = server.auth.replace(/:.*/, ':not-the-secret');
    await expectError(await server.request(tasksPath(), { headers: { authorization: wrong } }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 for malformed credentials', async () => {
    const key = server.auth.slice('Bearer '.length);
    for (const header of [key, `Basic ${key}`, 'Bearer ', `Bearer ${key.split(':')[0]}`, `Bearer :${key.split(':')[1]}`, 'Bearer a:b:c']) {
      await expectError(await server.request(tasksPath(), { headers: { authorization: header } }), 401, 'UNAUTHORIZED');
    }
  });

  it('never accepts a cookie as the credential', async () => {
    const key = server.auth.slice('Bearer '.length);
    const res = await fetch(`${server.url}${tasksPath()}`, {
      headers: { cookie: `authorization=${encodeURIComponent(server.auth)}; api_key=${key}` },
    });
    await expectError(res, 401, 'UNAUTHORIZED');
  });

  it('lets a viewer read but answers 403 to its writes', async () => {
    const created = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'read only' }));
    assert.equal(created.status, 201);
    const viewer = (await created.json()) as { api_key: string; api_secret: string; role: string };
    assert.equal(viewer.role, 'viewer');
    const headers = { authorization: bearer(viewer) };
    assert.equal((await server.request(tasksPath(), { headers })).status, 200);
    const write = await server.request('/api/api-keys', {
      ...jsonBody({ role: 'admin', name: 'escalate' }),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    const body = await expectError(write, 403, 'FORBIDDEN');
    assert.match(body.error.message, /viewer/);
  });

  it('answers 403 to an editor on admin-only routes', async () => {
    const editor = (await (await server.request('/api/api-keys', jsonBody({ role: 'editor', name: 'imports' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    await expectError(await server.request('/api/api-keys', { headers: { authorization: bearer(editor) } }), 403, 'FORBIDDEN');
  });

  it("answers 403 for another organization's organization_uuid and 404 for its task", async () => {
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other Org' });
    const otherAuth = { authorization: bearer(other) };
    await expectError(await server.request(tasksPath(), { headers: otherAuth }), 403, 'FORBIDDEN');

    const now = new Date().toISOString();
    await server.ctx.db.kysely
      .insertInto('background_tasks')
      .values({
        uuid: 'task-of-demo-org',
        task_id: 't1',
        task_type: 'IMPORT',
        status: 'COMPLETED',
        progress: 100,
        created_by_uuid: 'u',
        metadata: null,
        organization_uuid: server.organizationUuid,
        results: null,
        error_message: null,
        created_on: now,
        updated_on: now,
      })
      .execute();
    assert.equal((await server.request('/api/background-tasks/uuid/task-of-demo-org')).status, 200);
    await expectError(await server.request('/api/background-tasks/uuid/task-of-demo-org', { headers: otherAuth }), 404, 'NOT_FOUND');
  });

  it('revokes keys: a revoked key gets 401, and a key cannot revoke itself', async () => {
    const issued = (await (await server.request('/api/api-keys', jsonBody({ role: 'editor', name: 'short lived' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    const list = (await (await server.request('/api/api-keys')).json()) as { items: Array<Record<string, unknown>> };
    const listed = list.items.find((k) => k.api_key === issued.api_key);
    assert.ok(listed, 'the new key is listed');
    assert.equal('api_secret' in listed, false, 'lists never show secrets');
    assert.equal('secret_hash' in listed, false);

    assert.equal((await server.request(`/api/api-keys/${issued.api_key}`, { method: 'DELETE' })).status, 204);
    await expectError(await server.request(tasksPath(), { headers: { authorization: bearer(issued) } }), 401, 'UNAUTHORIZED');
    await expectError(await server.request(`/api/api-keys/${issued.api_key}`, { method: 'DELETE' }), 404, 'NOT_FOUND');

    const own = server.auth.slice('Bearer '.length).split(':')[0];
    await expectError(await server.request(`/api/api-keys/${own}`, { method: 'DELETE' }), 409, 'CONFLICT');
  });

  it('stores secrets hashed, never in clear', async () => {
    const secret = server.auth.split(':')[1] ?? '';
    const rows = await server.ctx.db.kysely.selectFrom('api_keys').select(['secret_hash']).execute();
    assert.ok(rows.length > 0);
    for (const row of rows) assert.notEqual(row.secret_hash, secret);
    const raw = server.ctx.db.sqlite.prepare('select count(*) as n from api_keys where secret_hash like ?').get(`%${secret}%`) as {
      n: number;
    };
    assert.equal(raw.n, 0);
  });

  it('slows down repeated wrong secrets for a key with 429 and Retry-After, without locking out the key or other keys', async () => {
    const target = (await (await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'guessed at' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    const guess = (n: number) => server.request(tasksPath(), { headers: { authorization: `Bearer ${target.api_key}:guess${n}` } });
    for (let n = 0; n < 10; n++) assert.equal((await guess(n)).status, 401, `attempt ${n + 1}`);
    const blocked = await guess(10);
    const body = await expectError(blocked, 429, 'TOO_MANY_REQUESTS');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(body.error.message, /Try again in \d+ s/);
    const right = await server.request(tasksPath(), { headers: { authorization: bearer(target) } });
    assert.equal(right.status, 200, 'the right secret is never locked out');
    assert.equal((await guess(11)).status, 429, 'and wrong ones stay throttled after it');
    assert.equal((await server.request(tasksPath())).status, 200, 'other keys are unaffected');
  });
});
