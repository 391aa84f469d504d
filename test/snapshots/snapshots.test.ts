import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import type { LiveEvent } from '../../server/live/bus.ts';
import type { ResetResult, RestoredSnapshot, SavedSnapshot, SnapshotInfo } from '../../server/snapshots/schemas.ts';
import { withGatedImports, startHeldImport } from '../demo/support/held-import.ts';
import { type SeededDemo, startSeededDemo, totalOf } from '../demo/support/seeded-demo.ts';
import { ok, ORGANIZATION_LISTS, organizationView, type Page } from '../support/organization-view.ts';
import { jsonBody, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

async function errorOf(res: Response | Promise<Response>, status: number): Promise<{ code: string; message: string }> {
  return (await ok<{ error: { code: string; message: string } }>(res, status)).error;
}

/** Everything an organization can see of itself through the API, to compare before and after. */
async function viewOf(server: TestServer, org: string, auth: string): Promise<Record<string, unknown>> {
  const { view } = await organizationView(server, org, auth, [
    ...ORGANIZATION_LISTS,
    '/api/qrcodes?search=collins',
    '/api/webhooks/deliveries',
  ]);
  view.settings = await ok(server.request(`/api/settings?organization_uuid=${org}`, { headers: { authorization: auth } }));
  return view;
}

describe('snapshots of an organization, restore and reset', () => {
  let server: TestServer;
  let demo: SeededDemo;
  let org: string;
  const post = (p: string, body: unknown, auth = server.auth) =>
    server.request(p, { ...jsonBody(body), headers: { 'content-type': 'application/json', authorization: auth } });
  const total = (p: string) => totalOf(server, p, org);

  before(async () => {
    demo = await startSeededDemo('Snapshot');
    server = demo.server;
    org = server.organizationUuid;
    await ok(
      post(
        '/api/qrcodes',
        { organization_uuid: demo.other.organization_uuid, location: '9 Collins Street, Melbourne VIC 3000' },
        demo.otherAuth,
      ),
    );
  });
  after(() => server.stop());

  it('brings back QR codes, appointments, services, webhooks, inboxes, settings and search as they were; keys and other organizations stay', async () => {
    const inbox = (await ok<Page<{ uuid: string }>>(server.request(`/api/inboxes?organization_uuid=${org}`))).items[0];
    assert.ok(inbox, 'the demo made an inbox');
    await ok(post('/api/service-confirmations/simulate', { organization_uuid: org, event: 'service_confirmation.check_in' }));
    await waitFor('the check-in in the demo inbox', async () =>
      (await total(`/api/inboxes/uuid/${inbox.uuid}/messages`)) > 0 ? true : undefined,
    );
    await waitFor('no pending delivery', async () => ((await total('/api/webhooks/deliveries?status=pending')) === 0 ? true : undefined));
    await ok(post('/api/qrcodes', { organization_uuid: org, location: '77 Collins Street, Melbourne VIC 3000', name: 'Collins corner' }));
    const gone = await ok<{ uuid: string }>(
      post('/api/webhooks/register', {
        organization_uuid: org,
        url: 'https://hooks.example.com/gone',
        events: ['service_confirmation.check_in'],
      }),
      201,
    );
    assert.equal((await server.request(`/api/webhooks/uuid/${gone.uuid}?organization_uuid=${org}`, { method: 'DELETE' })).status, 204);
    const before = await viewOf(server, org, server.auth);
    const otherBefore = await viewOf(server, demo.other.organization_uuid, demo.otherAuth);
    assert.ok((before['/api/qrcodes?search=collins'] as Page<unknown>).total >= 1, 'the search finds the QR code');
    assert.ok((before['/api/appointment_schedule'] as Page<unknown>).total > 0);

    const saved = await ok<SavedSnapshot>(post('/api/snapshots', { name: 'baseline' }), 201);
    assert.equal(saved.name, 'baseline');
    assert.equal(saved.counts.qrcodes, (before['/api/qrcodes'] as Page<unknown>).total);
    assert.equal(
      saved.counts.webhooks,
      (before['/api/webhooks'] as Page<unknown>).total,
      'the webhooks the user has, the deleted one not counted',
    );
    assert.ok(saved.size_bytes > 0);
    assert.ok(fs.existsSync(path.join(server.dataDir, 'snapshots', org, 'baseline.sqlite')));

    // The developer's test run changes everything.
    const qrcodes = (before['/api/qrcodes'] as Page<{ uuid: string }>).items;
    const first = qrcodes[0];
    assert.ok(first);
    await ok(server.request(`/api/qrcodes/uuid/${first.uuid}`, jsonBody({ name: 'Renamed in the run', label: 'zzz' }, 'PATCH')));
    await ok(post('/api/qrcodes', { organization_uuid: org, location: '1 George Street, Sydney NSW 2000', name: 'Added in the run' }));
    await ok(post('/api/services', { organization_uuid: org, name: 'Added service', code: 'ADD' }));
    const webhook = (before['/api/webhooks'] as Page<{ uuid: string }>).items[0];
    assert.ok(webhook);
    await ok(server.request(`/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' }), 204);
    await ok(server.request(`/api/inboxes/uuid/${inbox.uuid}/messages`, { method: 'DELETE' }), 204);
    await ok(server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH')));
    const session = await ok<{ token: string }>(post('/api/api-keys', { role: 'viewer', name: 'made after the snapshot' }));
    assert.equal(await total('/api/qrcodes?search=renamed%20in%20the'), 1);

    const events: LiveEvent[] = [];
    const unsubscribe = server.ctx.live.subscribe((event) => {
      if (event.type === 'organization.replaced') events.push(event);
    });
    const restored = await ok<RestoredSnapshot>(post('/api/snapshots/baseline/restore', {}), 200);
    unsubscribe();
    assert.equal(restored.name, 'baseline');
    assert.equal(restored.restored.qrcodes, saved.counts.qrcodes);
    assert.equal(restored.deleted.qrcodes, saved.counts.qrcodes + 1);
    assert.deepEqual(events, [{ type: 'organization.replaced', organization_uuid: org, data: { action: 'restore', name: 'baseline' } }]);

    assert.deepEqual(await viewOf(server, org, server.auth), before, 'the organization is as it was');
    assert.deepEqual(await viewOf(server, demo.other.organization_uuid, demo.otherAuth), otherBefore, 'another organization is untouched');
    assert.equal(await total('/api/qrcodes?search=renamed%20in%20the'), 0, 'the search forgot what the run did');
    assert.equal(await total('/api/qrcodes?search=added%20in%20the'), 0);
    assert.equal(await total(`/api/qrcodes?search=${encodeURIComponent(qrcodes[1]?.uuid ? 'collins corner' : '')}`), 1);
    const keys = await ok<Page<{ name: string }> | { name: string }[]>(server.request('/api/api-keys'));
    const names = (Array.isArray(keys) ? keys : keys.items).map((k) => k.name);
    assert.ok(names.includes('made after the snapshot'), 'API keys are not part of a snapshot');
    void session;

    // The restored data works: a new check-in is delivered to the restored inbox again.
    await ok(post('/api/service-confirmations/simulate', { organization_uuid: org, event: 'service_confirmation.check_in' }));
    const messages = (before[`messages ${inbox.uuid}`] as Page<unknown>).total;
    await waitFor('a new message in the restored inbox', async () =>
      (await total(`/api/inboxes/uuid/${inbox.uuid}/messages`)) > messages ? true : undefined,
    );
  });

  it('lists snapshots with size and time, refuses a taken name unless replaced, and deletes', async () => {
    await ok(post('/api/snapshots', { name: 'second.run_2' }), 201);
    const taken = await errorOf(post('/api/snapshots', { name: 'second.run_2' }), 409);
    assert.match(taken.message, /exists.*replace/);
    await ok(post('/api/snapshots', { name: 'second.run_2', replace: true }), 201);
    const list = await ok<{ items: SnapshotInfo[] }>(server.request('/api/snapshots'));
    assert.deepEqual(list.items.map((s) => s.name).sort(), ['baseline', 'second.run_2']);
    for (const item of list.items) {
      assert.ok(item.size_bytes > 0);
      assert.ok(!Number.isNaN(Date.parse(item.created_on)));
    }
    assert.deepEqual(
      (await ok<{ items: SnapshotInfo[] }>(server.request('/api/snapshots', { headers: { authorization: demo.otherAuth } }))).items,
      [],
    );
    await ok(server.request('/api/snapshots/second.run_2', { method: 'DELETE' }), 204);
    const gone = await errorOf(server.request('/api/snapshots/second.run_2', { method: 'DELETE' }), 404);
    assert.match(gone.message, /Snapshot "second.run_2" .*not found/);
    assert.deepEqual(
      (await ok<{ items: SnapshotInfo[] }>(server.request('/api/snapshots'))).items.map((s) => s.name),
      ['baseline'],
    );
  });

  it('answers 404 for an unknown snapshot, 400 for a bad name, 403 below admin', async () => {
    const unknown = await errorOf(post('/api/snapshots/nope/restore', {}), 404);
    assert.equal(unknown.code, 'NOT_FOUND');
    assert.match(unknown.message, /Snapshot "nope".*snapshot list/);
    assert.equal(
      (await errorOf(post('/api/snapshots/baseline/restore', {}, demo.otherAuth), 404)).code,
      'NOT_FOUND',
      "another organization's snapshot is not found",
    );
    for (const name of ['../etc', '.hidden', 'a b', 'x'.repeat(65), '', 'émoji']) {
      const res = await post('/api/snapshots', { name });
      assert.equal(res.status, 400, `name ${JSON.stringify(name)}`);
      assert.match((await errorOf(Promise.resolve(res), 400)).message, /letters, digits/);
    }
    assert.equal((await post('/api/snapshots/a%20b/restore', {})).status, 400);
    for (const auth of [demo.viewerAuth, demo.editorAuth]) {
      assert.equal((await post('/api/snapshots', { name: 'x' }, auth)).status, 403);
      assert.equal((await server.request('/api/snapshots', { headers: { authorization: auth } })).status, 403);
      assert.equal((await post('/api/snapshots/baseline/restore', {}, auth)).status, 403);
      assert.equal((await server.request('/api/snapshots/baseline', { method: 'DELETE', headers: { authorization: auth } })).status, 403);
      assert.equal((await post('/api/reset', { empty: true }, auth)).status, 403);
    }
    assert.equal((await post('/api/reset', {})).status, 400, 'empty: true is required');
  });

  it('a corrupt or foreign snapshot file is refused, nothing changes', async (t) => {
    const dir = path.join(server.dataDir, 'snapshots', org);
    fs.writeFileSync(path.join(dir, 'broken.sqlite'), 'not a database at all');
    t.after(() => fs.rmSync(path.join(dir, 'broken.sqlite'), { force: true }));
    const count = await total('/api/qrcodes');
    assert.match((await errorOf(post('/api/snapshots/broken/restore', {}), 409)).message, /Delete it and save a new one/);
    // A database, but not a snapshot (no snapshot_meta), and a snapshot of a schema this version does not know.
    new SQLite(path.join(dir, 'other-db.sqlite')).exec('create table t (x)').close();
    t.after(() => fs.rmSync(path.join(dir, 'other-db.sqlite'), { force: true }));
    assert.match((await errorOf(post('/api/snapshots/other-db/restore', {}), 409)).message, /not a snapshot of this organization/);
    fs.copyFileSync(path.join(dir, 'baseline.sqlite'), path.join(dir, 'future.sqlite'));
    t.after(() => fs.rmSync(path.join(dir, 'future.sqlite'), { force: true }));
    new SQLite(path.join(dir, 'future.sqlite'))
      .exec("update snapshot_meta set value = '999_from_the_future' where key = 'migration'")
      .close();
    assert.match((await errorOf(post('/api/snapshots/future/restore', {}), 409)).message, /this version can read/);
    const otherDir = path.join(server.dataDir, 'snapshots', demo.other.organization_uuid);
    fs.mkdirSync(otherDir, { recursive: true });
    fs.copyFileSync(path.join(dir, 'baseline.sqlite'), path.join(otherDir, 'stolen.sqlite'));
    assert.match(
      (await errorOf(post('/api/snapshots/stolen/restore', {}, demo.otherAuth), 409)).message,
      /not a snapshot of this organization/,
    );
    assert.equal(await total('/api/qrcodes'), count);
  });

  it("a snapshot file whose rows name another organization, or another's parent rows, is refused with 400 and changes neither", async (t) => {
    const dir = path.join(server.dataDir, 'snapshots', org);
    await ok(post('/api/snapshots', { name: 'to-edit' }), 201);
    t.after(() => ok(server.request('/api/snapshots/to-edit', { method: 'DELETE' }), 204));
    const otherTotal = () => totalOf(server, '/api/qrcodes', demo.other.organization_uuid, demo.otherAuth);
    const [mine, theirs] = [await total('/api/qrcodes'), await otherTotal()];
    const edits: Array<[string, string, RegExp]> = [
      [
        'named',
        `update qrcodes set organization_uuid = '${demo.other.organization_uuid}' where rowid in (select rowid from qrcodes limit 2)`,
        /2 in qrcodes/,
      ],
      [
        'orphaned',
        "update service_categories set service_uuid = 'a-service-of-someone-else' where rowid in (select rowid from service_categories limit 1)",
        /1 in service_categories/,
      ],
    ];
    for (const [name, edit, named] of edits) {
      fs.copyFileSync(path.join(dir, 'to-edit.sqlite'), path.join(dir, `${name}.sqlite`));
      t.after(() => fs.rmSync(path.join(dir, `${name}.sqlite`), { force: true }));
      new SQLite(path.join(dir, `${name}.sqlite`)).exec(edit).close();
      const res = await post(`/api/snapshots/${name}/restore`, {});
      const body = (await res.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } };
      assert.equal(res.status, 400, name);
      assert.equal(body.error.code, 'VALIDATION_ERROR');
      assert.match(body.error.message, named);
      assert.match(body.error.message, /restores only into the organization it was saved from\. Nothing was changed/);
      assert.equal(await total('/api/qrcodes'), mine, `${name}: this organization unchanged`);
      assert.equal(await otherTotal(), theirs, `${name}: the other organization unchanged`);
    }
    await ok(post('/api/snapshots/to-edit/restore', {}), 200);
  });

  it('reset --empty deletes all the organization has, keeps keys, settings and snapshots', async () => {
    const events: LiveEvent[] = [];
    const unsubscribe = server.ctx.live.subscribe((event) => {
      if (event.type === 'organization.replaced') events.push(event);
    });
    const webhooks = await total('/api/webhooks');
    const result = await ok<ResetResult>(post('/api/reset', { empty: true }), 200);
    unsubscribe();
    assert.ok(result.deleted.qrcodes > 0);
    assert.equal(result.deleted.webhooks, webhooks, 'deleted webhooks are not counted again');
    assert.deepEqual(
      events.map((e) => e.data),
      [{ action: 'reset' }],
    );
    for (const p of [
      '/api/qrcodes',
      '/api/services',
      '/api/webhooks',
      '/api/inboxes',
      '/api/appointment_schedule',
      '/api/background-tasks',
    ]) {
      assert.equal(await total(p), 0, p);
    }
    assert.equal(await total('/api/qrcodes?search=collins'), 0);
    assert.equal((await ok<{ items: SnapshotInfo[] }>(server.request('/api/snapshots'))).items.length, 1, 'snapshots stay');
    await ok(post('/api/snapshots/baseline/restore', {}), 200);
    assert.equal(await total('/api/qrcodes?search=collins%20corner'), 1, 'and can be restored after a reset');
  });
});

describe('a snapshot while an import runs', () => {
  it('refuses to save or restore with 409 while an import of the organization runs, and changes nothing', async () => {
    await withGatedImports(async (server, openGate) => {
      const org = server.organizationUuid;
      const post = (p: string, body: unknown) => server.request(p, jsonBody(body));
      // (The gated geocoder would hold a QR code made here too: the snapshot has a service.)
      await ok(post('/api/services', { organization_uuid: org, name: 'Before', code: 'BEF' }));
      await ok(post('/api/snapshots', { name: 'before' }), 201);
      const { task, status } = await startHeldImport(server, '2 Collins Street, Melbourne VIC 3000');

      for (const [p, body] of [
        ['/api/snapshots/before/restore', {}],
        ['/api/snapshots', { name: 'during' }],
        ['/api/reset', { empty: true }],
      ] as const) {
        const refused = await errorOf(post(p, body), 409);
        assert.match(
          refused.message,
          new RegExp(`An import of this organization is still running \\(task ${task}, (PENDING|PROCESSING)\\)\\. Nothing was`),
        );
      }
      assert.ok(['PENDING', 'PROCESSING'].includes(await status()), 'the import was not stopped');
      assert.ok(!fs.existsSync(path.join(server.dataDir, 'snapshots', org, 'during.sqlite')));
      assert.deepEqual(fs.readdirSync(path.join(server.dataDir, 'snapshots', org)), ['before.sqlite'], 'no temp file left');

      openGate();
      await waitFor('the held import to finish', async () => ((await status()) === 'COMPLETED' ? true : undefined));
      const names = async (p: string) =>
        (await ok<Page<{ name: string }>>(server.request(`${p}?organization_uuid=${org}`))).items.map((q) => q.name).sort();
      assert.deepEqual(await names('/api/qrcodes'), ['Held']);
      await ok(post('/api/snapshots/before/restore', {}), 200);
      assert.deepEqual(await names('/api/qrcodes'), []);
      assert.ok((await names('/api/services')).includes('Before'));
      assert.equal((await server.request(`/api/background-tasks/uuid/${task}`)).status, 404, 'the import came after the snapshot');
    });
  });
});
