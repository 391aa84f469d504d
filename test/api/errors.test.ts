import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { logFile } from '../../server/logger.ts';
import { type TestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

async function errorOf(res: Response, status: number, code: string): Promise<ErrorBody> {
  assert.equal(res.status, status, `status of ${res.url}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, 'never an HTML error page');
  const body = (await res.json()) as ErrorBody;
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.deepEqual(Object.keys(body).sort(), ['error']);
  return body;
}

describe('error contract (docs/api.md "Errors")', () => {
  const server = suiteServer();

  const post = (body: string | Uint8Array, contentType: string) =>
    server.request('/api/api-keys', { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers malformed JSON with 400', async () => {
    const body = await errorOf(await post('{"role": "viewer",', 'application/json'), 400, 'VALIDATION_ERROR');
    assert.match(body.error.message, /not valid JSON/);
  });

  it('answers a body that fails the schema with 400 and names each field', async () => {
    const body = await errorOf(await post(JSON.stringify({ role: 'owner' }), 'application/json'), 400, 'VALIDATION_ERROR');
    const paths = body.error.details?.map((d) => d.path).sort();
    assert.deepEqual(paths, ['body.name', 'body.role']);
  });

  it('answers a missing body with 400', async () => {
    const res = await server.request('/api/api-keys', { method: 'POST' });
    await errorOf(res, 400, 'VALIDATION_ERROR');
  });

  it('answers an oversized body with 413', async () => {
    const huge = JSON.stringify({ role: 'viewer', name: 'x'.repeat(2 * 1024 * 1024) });
    await errorOf(await post(huge, 'application/json'), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a wrong content type with 415', async () => {
    const body = await errorOf(await post('role=viewer&name=x', 'application/x-www-form-urlencoded'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(body.error.message, /application\/json/);
  });

  it('answers an unknown /api route with 404 JSON', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing-here'],
      ['POST', '/api/background-tasks'],
      ['DELETE', '/api'],
      ['GET', '/api/background-tasks/uuid/a/b'],
    ] as const) {
      const res = await server.request(path, { method });
      const body = await errorOf(res, 404, 'NOT_FOUND');
      assert.match(body.error.message, new RegExp(path.replaceAll('/', '\\/')));
    }
  });

  it('answers invalid query values with 400 naming the parameter', async () => {
    const org = server.organizationUuid;
    for (const [query, field] of [
      [`organization_uuid=${org}&page=0`, 'query.page'],
      [`organization_uuid=${org}&page=abc`, 'query.page'],
      [`organization_uuid=${org}&per_page=101`, 'query.per_page'],
      [`organization_uuid=${org}&per_page=2.5`, 'query.per_page'],
      [`organization_uuid=${org}&status=DONE`, 'query.status'],
      [`organization_uuid=${org}&task_type=EXPORT`, 'query.task_type'],
      ['page=1', 'query.organization_uuid'],
    ] as const) {
      const body = await errorOf(await server.request(`/api/background-tasks?${query}`), 400, 'VALIDATION_ERROR');
      assert.deepEqual(
        body.error.details?.map((d) => d.path),
        [field],
        query,
      );
    }
  });

  it('answers an unexpected failure with a generic 500 and keeps the details in the log only', async () => {
    const scratch = breakTaskTable(server);
    const res = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}`);
    const body = await errorOf(res, 500, 'INTERNAL');
    assert.doesNotMatch(body.error.message, /no such table|SQLITE|at /, 'no internals leak to the client');
    const log = fs.readFileSync(logFile(server.dataDir), 'utf8');
    assert.match(log, /no such table: background_tasks/);
    scratch.restore();
  });
});

/** Breaks the task table under the running server so its query fails for real, then puts it back. */
function breakTaskTable(server: TestServer) {
  server.ctx.db.sqlite.exec('alter table background_tasks rename to background_tasks_aside');
  return { restore: () => server.ctx.db.sqlite.exec('alter table background_tasks_aside rename to background_tasks') };
}
