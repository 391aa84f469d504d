import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { logFile } from '../../server/logger.ts';
import { rawRequest } from '../support/raw-request.ts';
import { suiteServer } from '../support/suite-server.ts';

describe('security defaults', () => {
  const server = suiteServer();

  const tasksUrl = () => `${server.url}/api/background-tasks?organization_uuid=${server.organizationUuid}`;

  it('listens on 127.0.0.1 by default', () => {
    assert.equal(new URL(server.url).hostname, '127.0.0.1');
  });

  it('refuses a Host header that is not the address it serves (DNS rebinding)', async () => {
    for (const host of ['attacker.example', `attacker.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      const res = await rawRequest(tasksUrl(), { host, authorization: server.auth });
      assert.equal(res.status, 403, `Host: ${host}`);
      assert.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, 'FORBIDDEN');
    }
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`]) {
      const res = await rawRequest(tasksUrl(), { host, authorization: server.auth });
      assert.equal(res.status, 200, `Host: ${host}`);
    }
  });

  it('refuses cross-origin browser requests and sends no CORS headers', async () => {
    const cross = await rawRequest(tasksUrl(), { origin: 'https://evil.example', authorization: server.auth });
    assert.equal(cross.status, 403);
    assert.equal(cross.headers['access-control-allow-origin'], undefined);
    const opaque = await rawRequest(tasksUrl(), { origin: 'null', authorization: server.auth });
    assert.equal(opaque.status, 403);
    const preflight = await rawRequest(tasksUrl(), { origin: 'https://evil.example', 'access-control-request-method': 'POST' }, 'OPTIONS');
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    const same = await rawRequest(tasksUrl(), { origin: server.url, authorization: server.auth });
    assert.equal(same.status, 200);
  });

  it('never writes the credential to the log', async () => {
    const secret = server.auth.split(':')[1] ?? '';
    assert.ok(secret.length > 20);
    await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}`);
    await server.request('/api/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"role":"viewer","name":"log check"}',
    });
    await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer qrs_x:${secret}` } });
    const log = fs.readFileSync(logFile(server.dataDir), 'utf8');
    assert.match(log, /"path":"\/api\/api-keys"/, 'requests are logged');
    assert.ok(!log.includes(secret), 'the secret is not in the log');
  });
});
