import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { createInbox, type InboxView, type PageView } from '../support/inboxes.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

describe('inbox CRUD (/api/inboxes)', () => {
  const server = suiteServer();

  it('creates an inbox with a loopback URL, defaults, and no secrets in the answer', async () => {
    const inbox = await createInbox(server, { name: 'My app', secrets: ['s1', 's2'] });
    assert.equal(inbox.url, `http://127.0.0.1:${server.port}/inbox/${inbox.uuid}`);
    assert.equal(inbox.name, 'My app');
    assert.equal(inbox.secret_count, 2);
    assert.equal(inbox.secrets, undefined);
    assert.deepEqual(inbox.response, { status: null, delay_ms: 0, drop: false });
    assert.equal(inbox.forward_to, null);
    assert.equal(inbox.message_count, 0);

    const withSecrets = await server.request(`/api/inboxes/uuid/${inbox.uuid}?include_secrets=true`);
    assert.deepEqual(((await withSecrets.json()) as InboxView).secrets, ['s1', 's2']);
  });

  it('lists in the page shape, and answers pages 0 for an organization without inboxes', async () => {
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Empty org' });
    const empty = await fetch(`${server.url}/api/inboxes?organization_uuid=${other.organization_uuid}`, {
      headers: { authorization: bearer(other) },
    });
    assert.deepEqual(await empty.json(), { items: [], total: 0, pages: 0, page: 1, per_page: 10 });

    await createInbox(server, { name: 'second' });
    const res = await server.request(`/api/inboxes?organization_uuid=${server.organizationUuid}&per_page=1&page=2`);
    const page = (await res.json()) as PageView<InboxView>;
    assert.equal(page.per_page, 1);
    assert.equal(page.items.length, 1);
    assert.ok(page.total >= 2);
    assert.equal(page.pages, page.total);
  });

  it('patches fields one at a time, merging the fault-injection settings', async () => {
    const inbox = await createInbox(server, { response: { status: 503 } });
    assert.deepEqual(inbox.response, { status: 503, delay_ms: 0, drop: false });
    const res = await server.request(
      `/api/inboxes/uuid/${inbox.uuid}`,
      jsonBody({ response: { delay_ms: 250 }, name: 'renamed' }, 'PATCH'),
    );
    assert.equal(res.status, 200);
    const patched = (await res.json()) as InboxView;
    assert.deepEqual(patched.response, { status: 503, delay_ms: 250, drop: false });
    assert.equal(patched.name, 'renamed');
    const cleared = (await (
      await server.request(`/api/inboxes/uuid/${inbox.uuid}`, jsonBody({ response: { status: null } }, 'PATCH'))
    ).json()) as InboxView;
    assert.equal(cleared.response.status, null);

    const emptyPatch = await server.request(`/api/inboxes/uuid/${inbox.uuid}`, jsonBody({}, 'PATCH'));
    assert.equal(emptyPatch.status, 400);
  });

  it('validates fields and names them', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: '' }, /body\.name/],
      [{ name: 'x', response: { status: 99 } }, /body\.response\.status/],
      [{ name: 'x', response: { delay_ms: 600_000 } }, /body\.response\.delay_ms/],
      [{ name: 'x', secrets: [''] }, /body\.secrets\.0/],
      [{ name: 'x', forward_to: 'ftp://example.com/' }, /body\.forward_to/],
      [{ name: 'x', forward_to: 'http://example.com/hook' }, /body\.forward_to/],
      [{ name: 'x', forward_to: `http://127.0.0.1:${server.port}/inbox/abc` }, /loop/],
    ];
    for (const [fields, path] of cases) {
      const res = await server.request('/api/inboxes', jsonBody({ organization_uuid: server.organizationUuid, ...fields }));
      assert.equal(res.status, 400, JSON.stringify(fields));
      const body = (await res.json()) as { error: { code: string; message: string; details?: Array<{ path: string }> } };
      assert.equal(body.error.code, 'VALIDATION_ERROR');
      assert.match(`${body.error.message} ${JSON.stringify(body.error.details)}`, path);
    }
    const https = await createInbox(server, { forward_to: 'https://example.com/hook' });
    assert.equal(https.forward_to, 'https://example.com/hook');
  });

  it('keeps organizations apart: 403 for another organization_uuid, 404 for its inbox', async () => {
    const inbox = await createInbox(server);
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other org' });
    const auth = { authorization: bearer(other) };
    const list = await fetch(`${server.url}/api/inboxes?organization_uuid=${server.organizationUuid}`, { headers: auth });
    assert.equal(list.status, 403);
    const create = await fetch(`${server.url}/api/inboxes`, {
      ...jsonBody({ organization_uuid: server.organizationUuid, name: 'x' }),
      headers: { ...auth, 'content-type': 'application/json' },
    });
    assert.equal(create.status, 403);
    for (const [method, path] of [
      ['GET', `/api/inboxes/uuid/${inbox.uuid}`],
      ['DELETE', `/api/inboxes/uuid/${inbox.uuid}`],
      ['GET', `/api/inboxes/uuid/${inbox.uuid}/messages?organization_uuid=${other.organization_uuid}`],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method, headers: auth });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
  });

  it('lets a viewer read but not write, nor see secrets', async () => {
    const keyRes = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'reader' }));
    const viewer = { authorization: bearer((await keyRes.json()) as { api_key: string; api_secret: string }) };
    const inbox = await createInbox(server, { secrets: ['top'] });
    assert.equal((await server.request(`/api/inboxes/uuid/${inbox.uuid}`, { headers: viewer })).status, 200);
    assert.equal((await server.request(`/api/inboxes/uuid/${inbox.uuid}?include_secrets=true`, { headers: viewer })).status, 403);
    const write = await server.request('/api/inboxes', {
      ...jsonBody({ organization_uuid: server.organizationUuid, name: 'v' }),
      headers: { ...viewer, 'content-type': 'application/json' },
    });
    assert.equal(write.status, 403);
  });

  it('deletes an inbox with its messages; its URL then answers 404', async () => {
    const inbox = await createInbox(server);
    await fetch(inbox.url, { method: 'POST', body: 'hello' });
    const del = await server.request(`/api/inboxes/uuid/${inbox.uuid}`, { method: 'DELETE' });
    assert.equal(del.status, 204);
    assert.equal((await server.request(`/api/inboxes/uuid/${inbox.uuid}`)).status, 404);
    const delivery = await fetch(inbox.url, { method: 'POST', body: '{}' });
    assert.equal(delivery.status, 404);
    assert.equal(((await delivery.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
    const left = await server.ctx.db.kysely.selectFrom('inbox_messages').select('uuid').where('inbox_uuid', '=', inbox.uuid).execute();
    assert.deepEqual(left, []);
  });
});
