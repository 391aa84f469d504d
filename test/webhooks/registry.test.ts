import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { MICROS_TIMESTAMP } from '../../server/webhooks/microtime.ts';
import { deref } from '../support/openapi-doc.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

type Json = Record<string, unknown>;

describe('webhook registry', () => {
  const server = suiteServer();

  const register = (body: Json, auth?: string) =>
    server.request('/api/webhooks/register', {
      ...jsonBody({ organization_uuid: server.organizationUuid, ...body }),
      ...(auth ? { headers: { 'content-type': 'application/json', authorization: auth } } : {}),
    });

  async function keyWithRole(role: string): Promise<string> {
    const res = await server.request('/api/api-keys', jsonBody({ role, name: `${role} key` }));
    assert.equal(res.status, 201);
    return bearer((await res.json()) as { api_key: string; api_secret: string });
  }

  test('registration answers 201 with the fields of the service contract and a generated secret', async () => {
    const res = await register({
      url: 'https://hooks.example.com/qr',
      events: ['service_confirmation.check_in', 'service_confirmation.check_in'],
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as Json;
    assert.deepEqual(Object.keys(body).sort(), [
      'created_on',
      'events',
      'is_active',
      'organization_uuid',
      'secret',
      'updated_on',
      'url',
      'uuid',
    ]);
    assert.match(String(body.created_on), MICROS_TIMESTAMP);
    assert.match(String(body.updated_on), MICROS_TIMESTAMP);
    assert.match(String(body.secret), /^[0-9a-f]{64}$/);
    assert.equal(body.is_active, true);
    assert.deepEqual(body.events, ['service_confirmation.check_in']);
    assert.equal(body.organization_uuid, server.organizationUuid);

    const list = (await (await server.request(`/api/webhooks?organization_uuid=${server.organizationUuid}`)).json()) as {
      items: Json[];
      total: number;
      pages: number;
    };
    assert.equal(list.total, 1);
    assert.equal(list.pages, 1);
    assert.equal(list.items[0]?.uuid, body.uuid);
    assert.equal('secret' in (list.items[0] ?? {}), false);

    const plain = (await (await server.request(`/api/webhooks/uuid/${String(body.uuid)}`)).json()) as Json;
    assert.equal('secret' in plain, false);
    const withSecret = (await (await server.request(`/api/webhooks/uuid/${String(body.uuid)}?include_secret=true`)).json()) as Json;
    assert.equal(withSecret.secret, body.secret);

    const viewer = await keyWithRole('viewer');
    assert.equal((await server.request(`/api/webhooks/uuid/${String(body.uuid)}`, { headers: { authorization: viewer } })).status, 200);
    assert.equal(
      (await server.request(`/api/webhooks/uuid/${String(body.uuid)}?include_secret=true`, { headers: { authorization: viewer } })).status,
      403,
    );
    assert.equal((await register({ url: 'https://a.example.com', events: ['service_confirmation.delivery'] }, viewer)).status, 403);
  });

  test('an unknown event name is refused with the valid ones listed', async () => {
    const res = await register({ url: 'https://hooks.example.com/qr', events: ['service_confirmation.check_in', 'qrcode.created'] });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; message: string; details: { path: string; message: string }[] } };
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.equal(body.error.details[0]?.path, 'body.events.1');
    assert.match(
      body.error.details[0]?.message ?? '',
      /"qrcode\.created".*service_confirmation\.check_in, service_confirmation\.check_out, service_confirmation\.delivery/,
    );
    assert.equal((await register({ url: 'https://hooks.example.com/qr', events: [] })).status, 400);
  });

  test('URL rules: https anywhere, http to loopback unless allowed, never metadata addresses', async () => {
    const problem = async (url: string) => {
      const res = await register({ url, events: ['service_confirmation.check_in'] });
      if (res.status === 201) return 'accepted';
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: { details: { path: string; message: string }[] } };
      assert.equal(body.error.details[0]?.path, 'body.url');
      return body.error.details[0]?.message ?? '';
    };
    assert.equal(await problem('http://127.0.0.1:9/hook'), 'accepted');
    assert.equal(await problem('http://localhost:9/hook'), 'accepted');
    assert.equal(await problem('http://[::1]:9/hook'), 'accepted');
    assert.match(await problem('http://hooks.example.com/qr'), /allow_http_webhooks/);
    assert.match(await problem('ftp://hooks.example.com/qr'), /https:\/\//);
    assert.match(await problem('not a url'), /absolute URL/);
    assert.match(await problem('https://user:pw@hooks.example.com/'), /user name or password/);
    assert.match(await problem('https://169.254.169.254/latest/meta-data'), /metadata/);
    assert.match(await problem('http://[::ffff:169.254.169.254]/'), /metadata/);
    assert.match(await problem('https://metadata.google.internal/'), /metadata/);

    const editor = await keyWithRole('editor');
    const denied = await server.request('/api/settings', {
      ...jsonBody({ allow_http_webhooks: true }, 'PATCH'),
      headers: { 'content-type': 'application/json', authorization: editor },
    });
    assert.equal(denied.status, 403);
    const allowed = await server.request('/api/settings', jsonBody({ allow_http_webhooks: true }, 'PATCH'));
    assert.equal(allowed.status, 200);
    assert.equal(((await allowed.json()) as Json).allow_http_webhooks, true);
    assert.equal(await problem('http://hooks.example.com/qr'), 'accepted');
    assert.match(await problem('http://169.254.169.254/'), /metadata/);
    await server.request('/api/settings', jsonBody({ allow_http_webhooks: false }, 'PATCH'));
  });

  test('update, delete, and organization scoping', async () => {
    const created = (await (
      await register({ url: 'https://hooks.example.com/a', events: ['service_confirmation.check_in'] })
    ).json()) as Json;
    const path = `/api/webhooks/uuid/${String(created.uuid)}`;
    const patched = await server.request(
      path,
      jsonBody({ url: 'https://hooks.example.com/b', events: ['service_confirmation.delivery'], is_active: false }, 'PATCH'),
    );
    assert.equal(patched.status, 200);
    const body = (await patched.json()) as Json;
    assert.equal(body.url, 'https://hooks.example.com/b');
    assert.deepEqual(body.events, ['service_confirmation.delivery']);
    assert.equal(body.is_active, false);
    assert.equal('secret' in body, false);
    assert.equal(body.created_on, created.created_on);
    assert.ok(String(body.updated_on) > String(created.updated_on));
    assert.equal((await server.request(path, jsonBody({}, 'PATCH'))).status, 400);
    assert.equal((await server.request(path, jsonBody({ secret: 'mine' }, 'PATCH'))).status, 400);
    assert.equal((await server.request(path, jsonBody({ url: 'http://hooks.example.com/' }, 'PATCH'))).status, 400);

    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other Org' });
    const otherAuth = bearer(other);
    assert.equal((await server.request(path, { headers: { authorization: otherAuth } })).status, 404);
    assert.equal((await server.request(path, { method: 'DELETE', headers: { authorization: otherAuth } })).status, 404);
    assert.equal(
      (await server.request(`/api/webhooks?organization_uuid=${server.organizationUuid}`, { headers: { authorization: otherAuth } }))
        .status,
      403,
    );
    assert.equal(
      (await register({ url: 'https://hooks.example.com/c', events: ['service_confirmation.check_in'] }, otherAuth)).status,
      403,
    );
    const theirs = await server.request('/api/webhooks/register', {
      ...jsonBody({
        organization_uuid: other.organization_uuid,
        url: 'https://hooks.example.com/c',
        events: ['service_confirmation.check_in'],
      }),
      headers: { 'content-type': 'application/json', authorization: otherAuth },
    });
    assert.equal(theirs.status, 201);
    const theirList = (await (
      await server.request(`/api/webhooks?organization_uuid=${other.organization_uuid}`, { headers: { authorization: otherAuth } })
    ).json()) as { total: number };
    assert.equal(theirList.total, 1);

    assert.equal((await server.request(path, { method: 'DELETE' })).status, 204);
    assert.equal((await server.request(path)).status, 404);
    assert.equal((await server.request(path, { method: 'DELETE' })).status, 404);
  });

  test('settings: defaults, admin-only change, retry schedule', async () => {
    const res = await server.request('/api/settings');
    assert.equal(res.status, 200);
    const settings = (await res.json()) as Json;
    assert.equal(settings.webhook_retry_schedule, 'standard');
    assert.equal(settings.organization_uuid, server.organizationUuid);
    const changed = await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH'));
    assert.equal(((await changed.json()) as Json).webhook_retry_schedule, 'fast');
    assert.equal((await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'hourly' }, 'PATCH'))).status, 400);
    assert.equal((await server.request('/api/settings', jsonBody({}, 'PATCH'))).status, 400);
  });

  test('a given secret (QR Sandbox only, x-sandbox in OpenAPI): registered, changed by PATCH, checked', async () => {
    const res = await register({
      url: 'https://hooks.example.com/given',
      events: ['service_confirmation.check_in'],
      secret: 'ci-secret-1234',
    });
    assert.equal(res.status, 201);
    const created = (await res.json()) as { uuid: string; secret: string };
    assert.equal(created.secret, 'ci-secret-1234');
    const patched = await server.request(`/api/webhooks/uuid/${created.uuid}`, {
      ...jsonBody({ secret: 'rotated-secret-5678' }),
      method: 'PATCH',
    });
    assert.equal(patched.status, 200);
    assert.equal(((await patched.json()) as Json).secret, undefined, 'an update does not answer with the secret');
    const read = (await (await server.request(`/api/webhooks/uuid/${created.uuid}?include_secret=true`)).json()) as { secret: string };
    assert.equal(read.secret, 'rotated-secret-5678');
    const bad = await register({
      url: 'https://hooks.example.com/bad',
      events: ['service_confirmation.check_in'],
      secret: 'has space 123',
    });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /secret/);

    const doc = (await (await server.request('/api/openapi.json')).json()) as Json;
    const body = (doc.paths as Json)['/api/webhooks/register'] as { post: { requestBody: { content: Record<string, { schema: Json }> } } };
    const schema = deref(doc, body.post.requestBody.content['application/json']?.schema) as { properties: Record<string, Json> };
    assert.equal(schema.properties.secret?.['x-sandbox'], true);
  });
});
