import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawRequest } from '../support/raw-request.ts';
import { requestLogLine } from '../support/request-log.ts';
import { suiteServer } from '../support/suite-server.ts';

/** API GETs go straight to their route, not through express: they must answer exactly as express did. */
describe('API GETs dispatched without the express router', () => {
  const server = suiteServer();

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    rawRequest(`${server.url}${path}`, { authorization: server.auth, ...headers }, method);

  it('matches paths as express does: trailing slash, any case, params decoded', async () => {
    const list = `/api/background-tasks?organization_uuid=${server.organizationUuid}`;
    const plain = await get(list);
    assert.equal(plain.status, 200);
    assert.deepEqual(
      JSON.parse((await get(`/api/background-tasks/?organization_uuid=${server.organizationUuid}`)).body),
      JSON.parse(plain.body),
    );
    assert.equal((await get(`/api/BACKGROUND-TASKS?organization_uuid=${server.organizationUuid}`)).status, 200);
    const missing = await get('/api/background-tasks/uuid/no%20such%20task');
    assert.equal(missing.status, 404);
    assert.match(missing.body, /no such task/);
    const malformed = await get('/api/background-tasks/uuid/%E0%A4%A');
    assert.equal(malformed.status, 400);
  });

  it('answers with the security headers, JSON content type and length, and HEAD without a body', async () => {
    const res = await get('/api/session');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
    const head = await get('/api/session', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  it('refuses a foreign Host or Origin, a missing key, and an unknown route, in the error shape', async () => {
    const path = `/api/background-tasks?organization_uuid=${server.organizationUuid}`;
    for (const [headers, status, code] of [
      [{ host: 'attacker.example' }, 403, 'FORBIDDEN'],
      [{ origin: 'https://evil.example' }, 403, 'FORBIDDEN'],
      [{ authorization: '' }, 401, 'UNAUTHORIZED'],
    ] as const) {
      const res = await get(path, headers);
      assert.equal(res.status, status, JSON.stringify(headers));
      assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, code);
    }
    const unknown = await get('/api/no-such-route');
    assert.equal(unknown.status, 404);
    assert.equal((JSON.parse(unknown.body) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  it("gives a route that takes the response express's response (the docs page sets its type and policy)", async () => {
    const docs = await get('/api/docs');
    assert.equal(docs.status, 200);
    assert.match(String(docs.headers['content-type']), /^text\/html/);
    assert.ok(docs.headers['content-security-policy']);
    assert.equal(docs.headers['x-frame-options'], 'DENY');
    assert.match(docs.body, /background-tasks/);
  });

  it('passes the query as the app parses it: repeated names are lists, a list where one value is expected is a 400', async () => {
    const list = await get(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=2`);
    assert.equal(list.status, 200);
    assert.equal((JSON.parse(list.body) as { per_page: number }).per_page, 2);
    const twice = await get(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=2&per_page=3`);
    assert.equal(twice.status, 400);
    assert.equal((JSON.parse(twice.body) as { error: { code: string } }).error.code, 'VALIDATION_ERROR');
  });

  it('logs one line per request, without the query', async () => {
    await get(`/api/background-tasks/uuid/logged-task?organization_uuid=${server.organizationUuid}`);
    assert.deepEqual(await requestLogLine(server.dataDir, 'logged-task'), [
      'GET',
      '/api/background-tasks/uuid/logged-task',
      404,
      'request',
    ]);
  });
});
