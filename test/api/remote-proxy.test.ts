import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { bearer, jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { insertTaskRow } from '../support/tasks.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';

describe('remote service through the local server (profiles and proxy)', () => {
  let local: TestServer;
  let remote: TestServer;
  let remoteKey: string;
  let remoteSecret: string;

  before(async () => {
    [local, remote] = await Promise.all([startTestServer(), startTestServer()]);
    [remoteKey = '', remoteSecret = ''] = remote.auth.slice('Bearer '.length).split(':');
    await insertTaskRow(remote, 'remote-task', {
      task_id: 'r1',
      status: 'COMPLETED',
      progress: 100,
      results: { inserted: 7, excluded: 0, excluded_data: [], restored: 0, updated: 0, tags_created: 0 },
    });
    const saved = await local.request(
      '/api/profiles/staging',
      jsonBody({ base_url: remote.url, api_key: remoteKey, api_secret: remoteSecret, organization_uuid: remote.organizationUuid }, 'PUT'),
    );
    assert.equal(saved.status, 200);
  });
  after(() => Promise.all([local.stop(), remote.stop()]));

  it('lists profiles without their secrets', async () => {
    const res = await local.request('/api/profiles');
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.ok(!text.includes(remoteSecret));
    assert.deepEqual(
      (JSON.parse(text) as { items: Array<{ name: string; base_url: string }> }).items.map((p) => [p.name, p.base_url]),
      [['staging', remote.url]],
    );
  });

  it("forwards reads and writes to the profile's service with its credential", async () => {
    const list = await local.request(`/api/remote/staging/api/background-tasks?organization_uuid=${remote.organizationUuid}`);
    assert.equal(list.status, 200);
    const page = (await list.json()) as { items: Array<{ uuid: string }> };
    assert.deepEqual(
      page.items.map((t) => t.uuid),
      ['remote-task'],
    );

    const created = await local.request('/api/remote/staging/api/api-keys', jsonBody({ role: 'viewer', name: 'made through the proxy' }));
    assert.equal(created.status, 201);
    const key = (await created.json()) as { api_key: string; api_secret: string; organization_uuid: string };
    assert.equal(key.organization_uuid, remote.organizationUuid, 'the key was made on the remote service');
    const check = await fetch(`${remote.url}/api/api-keys`, { headers: { authorization: remote.auth } });
    assert.ok(((await check.json()) as { items: Array<{ api_key: string }> }).items.some((k) => k.api_key === key.api_key));
    assert.equal(
      (
        await fetch(`${remote.url}/api/background-tasks?organization_uuid=${remote.organizationUuid}`, {
          headers: { authorization: bearer(key) },
        })
      ).status,
      200,
    );
  });

  it("passes the remote's own errors through, and turns its credential refusals and outages into 502 in plain words", async () => {
    const invalid = await local.request(
      `/api/remote/staging/api/background-tasks?organization_uuid=${remote.organizationUuid}&per_page=1000`,
    );
    assert.equal(invalid.status, 400);
    assert.equal(((await invalid.json()) as { error: { code: string } }).error.code, 'VALIDATION_ERROR');

    await local.request('/api/profiles/wrong', jsonBody({ base_url: remote.url, api_key: remoteKey, api_secret: 'not-it' }, 'PUT'));
    const refused = await local.request(`/api/remote/wrong/api/background-tasks?organization_uuid=${remote.organizationUuid}`);
    assert.equal(refused.status, 502);
    assert.equal(refused.headers.get('x-remote-status'), '401', 'says what the remote answered');
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /rejected the API key or secret \(401\)/);

    const gone = await startTestServer();
    await gone.stop();
    await local.request('/api/profiles/gone', jsonBody({ base_url: gone.url, api_key: 'k', api_secret: 's' }, 'PUT'));
    const down = await local.request('/api/remote/gone/api/health');
    assert.equal(down.status, 502);
    assert.equal(down.headers.get('x-remote-status'), null, 'no remote status when nothing answered');
    assert.match(((await down.json()) as { error: { message: string } }).error.message, /Could not reach .*nothing is listening/);

    const missing = await local.request('/api/remote/nobody/api/health');
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as { error: { message: string } }).error.message, /no connection profile named "nobody"/);
  });

  it("passes on the remote's task uuid of a sync import, so the GUI can show that task", async () => {
    const form = new FormData();
    form.set('file', new Blob(['location,name\r\n"1 Mitchell St, Darwin NT 0800",Depot\r\n'], { type: 'text/csv' }), 'one.csv');
    form.set('organization_uuid', remote.organizationUuid);
    form.set('processing_mode', 'sync');
    const res = await local.request('/api/remote/staging/api/qrcodes/bulk', { method: 'POST', body: form });
    assert.equal(res.status, 200);
    const uuid = res.headers.get('x-background-task-uuid');
    assert.ok(uuid, 'the task uuid header came through');
    const task = await fetch(`${remote.url}/api/background-tasks/uuid/${uuid}`, { headers: { authorization: remote.auth } });
    assert.equal(task.status, 200, 'the task is on the remote');
    assert.equal((await local.request(`/api/background-tasks/uuid/${uuid}`)).status, 404, 'and not here');
  });

  it('never forwards a dry run, which the real service would take as a real import', async () => {
    const remoteTasks = async () =>
      ((await (await remote.request(`/api/background-tasks?organization_uuid=${remote.organizationUuid}`)).json()) as { total: number })
        .total;
    const before = await remoteTasks();
    const form = new FormData();
    form.set('organization_uuid', remote.organizationUuid);
    form.set('file', new Blob(['location\n"1 Collins Street, Melbourne VIC 3000"\n']), 'sites.csv');
    const res = await local.request('/api/remote/staging/api/qrcodes/bulk?dry_run=true', { method: 'POST', body: form });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /has no dry run, so it would import for real/);
    assert.equal(await remoteTasks(), before, 'nothing reached the remote service');
  });

  it('refuses a dry run sent as a form field or a JSON field before a byte reaches the service, and names the local check', async () => {
    // A stand-in for the real service, which has no dry run: it records every byte it is sent.
    let bytes = 0;
    let requests = 0;
    const service = http.createServer((req, res) => {
      requests += 1;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      req.on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{"message":"imported for real"}'));
    });
    let connections = 0;
    service.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address() as AddressInfo;
    try {
      assert.equal(
        (
          await local.request(
            '/api/profiles/real',
            jsonBody({ base_url: `http://127.0.0.1:${port}`, api_key: 'k', api_secret: 's' }, 'PUT'),
          )
        ).status,
        200,
      );
      const csv = new Blob(['location\n"1 Collins Street, Melbourne VIC 3000"\n'], { type: 'text/csv' });
      const fieldLast = new FormData();
      fieldLast.set('organization_uuid', remote.organizationUuid);
      fieldLast.set('file', csv, 'sites.csv');
      fieldLast.set('dry_run', 'true');
      const fieldFirst = new FormData();
      fieldFirst.set('dry_run', 'false');
      fieldFirst.set('file', csv, 'sites.csv');
      const attempts: Array<[string, RequestInit]> = [
        ['a form field after the file', { method: 'POST', body: fieldLast }],
        ['a form field before the file (any value)', { method: 'POST', body: fieldFirst }],
        ['a JSON field', jsonBody({ organization_uuid: remote.organizationUuid, dry_run: true, items: [{ location: 'x' }] })],
        [
          'a JSON field written with an escape',
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"items":[{"dry_run":1}], "dry\\u005frun": true}' },
        ],
      ];
      for (const [what, init] of attempts) {
        const res = await local.request('/api/remote/real/api/qrcodes/bulk', init);
        const body = (await res.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } };
        assert.equal(res.status, 400, what);
        assert.match(body.error.message, /has no dry run, so it would import for real: .*nothing was sent/, what);
        assert.match(body.error.message, /Check the file on this sandbox instead \(POST \/api\/qrcodes\/bulk\?dry_run=true here/, what);
        assert.deepEqual(
          body.error.details.map((d) => d.path),
          ['dry_run'],
          what,
        );
      }
      assert.deepEqual({ connections, requests, bytes }, { connections: 0, requests: 0, bytes: 0 }, 'not a byte reached the service');

      const nested = await local.request(
        '/api/remote/real/api/qrcodes/bulk',
        jsonBody({ organization_uuid: remote.organizationUuid, items: [{ location: 'x', dry_run: 'a cell, not the field' }] }),
      );
      assert.equal(nested.status, 202, 'a dry_run inside the rows is data, and the import goes through');
      assert.equal(requests, 1);
      assert.ok(bytes > 0);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  it("keeps each organization's profiles to itself: another's editor and admin get 404 and never reach the remote; a profile of the same name is its own", async () => {
    const other = await createOrganization(local.ctx.db.kysely, { name: 'Other organization' });
    const otherAdmin = bearer(other);
    const otherEditor = bearer(
      (await (
        await local.request('/api/api-keys', {
          ...jsonBody({ role: 'editor', name: 'e' }),
          headers: { authorization: otherAdmin, 'content-type': 'application/json' },
        })
      ).json()) as { api_key: string; api_secret: string },
    );
    const as = (authorization: string, init: RequestInit = {}) => ({
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization },
    });
    const remoteTasks = async () =>
      ((await (await remote.request(`/api/background-tasks?organization_uuid=${remote.organizationUuid}`)).json()) as { total: number })
        .total;
    const tasksBefore = await remoteTasks();

    const form = new FormData();
    form.set('organization_uuid', remote.organizationUuid);
    form.set('file', new Blob(['location\n"1 Collins Street, Melbourne VIC 3000"\n']), 'sites.csv');
    const used = await local.request('/api/remote/staging/api/qrcodes/bulk', as(otherEditor, { method: 'POST', body: form }));
    assert.equal(used.status, 404, "another organization's editor cannot use the profile");
    assert.match(
      ((await used.json()) as { error: { message: string } }).error.message,
      /no connection profile named "staging" in your organization/,
    );
    assert.equal((await local.request('/api/remote/staging/api/health', as(otherAdmin))).status, 404);
    assert.equal(await remoteTasks(), tasksBefore, "nothing reached the remote with the first organization's key");
    assert.equal((await local.request('/api/profiles/staging', as(otherAdmin, { method: 'DELETE' }))).status, 404);
    assert.deepEqual(((await (await local.request('/api/profiles', as(otherAdmin))).json()) as { items: unknown[] }).items, []);

    const own = await local.request(
      '/api/profiles/staging',
      as(otherAdmin, { ...jsonBody({ base_url: 'http://127.0.0.1:9/elsewhere', api_key: 'theirs', api_secret: 'their-secret' }, 'PUT') }),
    );
    assert.equal(own.status, 200, 'the other organization saves its own profile of that name');
    const listed = async (authorization: string) =>
      (
        (await (await local.request('/api/profiles', as(authorization))).json()) as { items: Array<{ name: string; api_key: string }> }
      ).items
        .filter((p) => p.name === 'staging')
        .map((p) => p.api_key);
    assert.deepEqual(await listed(otherAdmin), ['theirs']);
    assert.deepEqual(await listed(local.auth), [remoteKey], "the first organization's profile is untouched");
    const mine = await local.request(`/api/remote/staging/api/background-tasks?organization_uuid=${remote.organizationUuid}`);
    assert.equal(mine.status, 200, 'and still reaches its remote');
    assert.equal((await local.request('/api/profiles/staging', as(otherAdmin, { method: 'DELETE' }))).status, 204);
    assert.deepEqual(await listed(local.auth), [remoteKey]);
  });

  it('gives profiles saved before they had an organization to the first organization of the data folder', async () => {
    const file = path.join(local.dataDir, 'profiles.json');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: Array<Record<string, unknown>> };
    saved.profiles.push({ name: 'legacy', base_url: remote.url, api_key: remoteKey, api_secret: remoteSecret, secret_protection: 'none' });
    fs.writeFileSync(file, JSON.stringify(saved));
    const other = await createOrganization(local.ctx.db.kysely, { name: 'Later organization' });
    assert.equal((await local.request('/api/remote/legacy/api/health', { headers: { authorization: bearer(other) } })).status, 404);
    const names = ((await (await local.request('/api/profiles')).json()) as { items: Array<{ name: string }> }).items.map((p) => p.name);
    assert.ok(names.includes('legacy'), 'the first organization sees it');
    const stored = (JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: Array<{ name: string; owner_organization_uuid?: string }> })
      .profiles;
    assert.equal(stored.find((p) => p.name === 'legacy')?.owner_organization_uuid, local.organizationUuid, 'the file says whose it is');
  });

  it('keeps the proxy and profile changes away from lower roles', async () => {
    const viewer = (await (await local.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'v' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    const editor = (await (await local.request('/api/api-keys', jsonBody({ role: 'editor', name: 'e' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    assert.equal((await local.request('/api/remote/staging/api/health', { headers: { authorization: bearer(viewer) } })).status, 403);
    assert.equal((await local.request('/api/remote/staging/api/health', { headers: { authorization: bearer(editor) } })).status, 200);
    const put = await local.request('/api/profiles/x', {
      ...jsonBody({ base_url: remote.url, api_key: 'k', api_secret: 's' }, 'PUT'),
      headers: { authorization: bearer(editor), 'content-type': 'application/json' },
    });
    assert.equal(put.status, 403);
  });
});
