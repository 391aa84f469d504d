import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

describe('GET /api/session', () => {
  const server = suiteServer();

  test('names the key, its role and its organization', async () => {
    const res = await server.request('/api/session');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.organization_uuid, server.organizationUuid);
    assert.equal(body.organization_name, 'My Organization');
    assert.equal(body.role, 'admin');
    assert.equal(body.api_key, server.credentials?.api_key);
    assert.equal(body.name, 'My Organization admin');
  });

  test('a viewer key may read it', async () => {
    const created = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'dashboard' }));
    assert.equal(created.status, 201);
    const key = (await created.json()) as { api_key: string; api_secret: string };
    const res = await server.request('/api/session', { headers: { authorization: `Bearer ${key.api_key}:${key.api_secret}` } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.role, 'viewer');
    assert.equal(body.name, 'dashboard');
  });

  test('without a valid credential it is 401 with the error contract', async () => {
    const res = await server.request('/api/session', { headers: { authorization: 'Bearer qrs_nope:nope' } });
    assert.equal(res.status, 401);
    const body = (await res.json()) as { error: { code: string } };
    assert.equal(body.error.code, 'UNAUTHORIZED');
  });
});
