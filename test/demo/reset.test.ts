import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DemoResetEvent, DemoResetResult } from '../../server/demo/schemas.ts';
import { DEMO_SITES } from '../../server/demo/seed.ts';
import { DEMO_SERVICES } from '../../server/services/demo.ts';
import { fileUpload } from '../support/imports.ts';
import { withGatedImports, startHeldImport } from './support/held-import.ts';
import { type SeededDemo, startSeededDemo, totalOf } from './support/seeded-demo.ts';
import { ok, ORGANIZATION_LISTS, organizationView, type Page } from '../support/organization-view.ts';
import { jsonBody, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

const reset = (server: TestServer, organizationUuid: string, auth?: string) =>
  server.request('/api/demo/reset', {
    ...jsonBody({ organization_uuid: organizationUuid }),
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
  });

/** Everything organization B can see of itself through the API, to compare before and after. */
async function snapshot(server: TestServer, org: string, auth: string): Promise<Record<string, unknown>> {
  const { view, get } = await organizationView(server, org, auth, ORGANIZATION_LISTS);
  for (const hook of (view['/api/webhooks'] as Page<{ uuid: string }>).items)
    view[`deliveries ${hook.uuid}`] = await get(`/api/webhooks/uuid/${hook.uuid}/deliveries`);
  return view;
}

describe('POST /api/demo/reset', () => {
  let server: TestServer;
  let demo: SeededDemo;
  let orgA: string;
  const total = (p: string, org = orgA, auth = server.auth) => totalOf(server, p, org, auth);
  const post = (p: string, body: unknown, auth = server.auth) =>
    ok<Record<string, string>>(
      server.request(p, { ...jsonBody(body), headers: { 'content-type': 'application/json', authorization: auth } }),
    );

  before(async () => {
    demo = await startSeededDemo('Reset');
    server = demo.server;
    orgA = server.organizationUuid;
  });
  after(() => server.stop());

  it('deletes everything organization A made and seeds the demo again; keys, settings and the session stay', async () => {
    // A presenter has used the demo: a QR code by hand, another service, one removed, an import handler, events, settings.
    await post('/api/qrcodes', { organization_uuid: orgA, location: '1 Collins Street, Melbourne VIC 3000', name: 'Made by hand' });
    await post('/api/services', { organization_uuid: orgA, name: 'Roof Repairs', code: 'ROOF' });
    const services = await ok<Page<{ uuid: string; name: string }>>(server.request(`/api/services?organization_uuid=${orgA}&per_page=100`));
    const pest = services.items.find((s) => s.name === 'Pest Control');
    assert.ok(pest);
    assert.equal((await server.request(`/api/services/uuid/${pest.uuid}`, { method: 'DELETE' })).status, 204);
    await post('/api/import-handlers', { organization_uuid: orgA, name: 'Field team layout', mapping: { 'Job Ref': 'job_reference_id' } });
    await post('/api/service-confirmations/simulate', { organization_uuid: orgA, event: 'service_confirmation.check_in' });
    const inboxBefore = (await ok<Page<{ uuid: string }>>(server.request(`/api/inboxes?organization_uuid=${orgA}`))).items[0];
    assert.ok(inboxBefore);
    await waitFor('the check-in in the demo inbox', async () =>
      (await total(`/api/inboxes/uuid/${inboxBefore.uuid}/messages`)) > 0 ? true : undefined,
    );
    await ok(server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH')));
    const webhookBefore = (await ok<Page<{ uuid: string }>>(server.request(`/api/webhooks?organization_uuid=${orgA}`))).items[0];

    // Organization B has its own data, which must not change.
    const bQr = await post(
      '/api/qrcodes',
      { organization_uuid: demo.other.organization_uuid, location: '2 Collins Street, Melbourne VIC 3000' },
      demo.otherAuth,
    );
    await post('/api/services', { organization_uuid: demo.other.organization_uuid, name: 'Plumbing', code: 'PLB' }, demo.otherAuth);
    const bInbox = await post('/api/inboxes', { organization_uuid: demo.other.organization_uuid, name: 'B inbox' }, demo.otherAuth);
    await post(
      '/api/webhooks/register',
      { organization_uuid: demo.other.organization_uuid, url: bInbox.url, events: ['service_confirmation.check_in'] },
      demo.otherAuth,
    );
    await post(
      '/api/service-confirmations',
      { organization_uuid: demo.other.organization_uuid, qr_code_uuid: bQr.uuid, status: 'CHECK_IN' },
      demo.otherAuth,
    );
    await post(
      '/api/import-handlers',
      { organization_uuid: demo.other.organization_uuid, name: 'B layout', mapping: { Ref: 'job_reference_id' } },
      demo.otherAuth,
    );
    const bImport = await server.request('/api/appointment_schedule/bulk', {
      ...fileUpload(
        'tag_name,tag_number,start_date_time,location,service\r\nGate,7,2026-03-02 09:00,"2 Collins Street, Melbourne VIC 3000",Plumbing\r\n',
        'b.csv',
        {
          organization_uuid: demo.other.organization_uuid,
          processing_mode: 'sync',
        },
      ),
      headers: { authorization: demo.otherAuth },
    });
    assert.equal(bImport.status, 200, await bImport.clone().text());
    await waitFor("B's delivery to be delivered", async () =>
      (await total(`/api/inboxes/uuid/${bInbox.uuid}/messages`, demo.other.organization_uuid, demo.otherAuth)) > 0 ? true : undefined,
    );
    const bBefore = await snapshot(server, demo.other.organization_uuid, demo.otherAuth);

    // Uploads a crash left behind, one of A's import and one of B's.
    const db = server.ctx.db.kysely;
    const uploads = path.join(server.dataDir, 'uploads');
    const job = async (org: string) =>
      db
        .selectFrom('import_jobs')
        .innerJoin('background_tasks', 'background_tasks.uuid', 'import_jobs.task_uuid')
        .select('task_uuid')
        .where('background_tasks.organization_uuid', '=', org)
        .executeTakeFirstOrThrow();
    for (const [org, name] of [
      [orgA, 'a-left.upload'],
      [demo.other.organization_uuid, 'b-left.upload'],
    ] as const) {
      fs.writeFileSync(path.join(uploads, name), 'left behind');
      await db
        .updateTable('import_jobs')
        .set({ upload_file: path.join('uploads', name) })
        .where('task_uuid', '=', (await job(org)).task_uuid)
        .execute();
    }

    const before = {
      qrcodes: await total('/api/qrcodes'),
      appointments: await total('/api/appointment_schedule'),
      tasks: await total('/api/background-tasks'),
      confirmations: await total('/api/service-confirmations'),
    };
    assert.equal(before.qrcodes, DEMO_SITES + 1);
    assert.ok(before.appointments > 100);

    const events: DemoResetEvent[] = [];
    const unsubscribe = server.ctx.live.subscribe((event) => {
      if (event.type === 'demo.reset' && event.organization_uuid === orgA) events.push(event.data as DemoResetEvent);
    });
    const result = await ok<DemoResetResult>(reset(server, orgA));
    unsubscribe();

    assert.equal(result.deleted.qrcodes, before.qrcodes);
    assert.equal(result.deleted.tags, DEMO_SITES);
    assert.equal(result.deleted.appointments, before.appointments);
    assert.equal(result.deleted.tasks, before.tasks);
    assert.ok(result.deleted.excluded_rows >= 7, 'the excluded rows of both demo imports');
    assert.equal(result.deleted.services, DEMO_SERVICES.length + 1, 'the demo catalog (one soft-deleted) and Roof Repairs');
    assert.equal(result.deleted.import_handlers, 1);
    assert.equal(result.deleted.webhooks, 2, 'the demo inbox and the flaky app each had a webhook');
    assert.ok(result.deleted.webhook_events >= 1 && result.deleted.deliveries >= 1);
    assert.equal(result.deleted.service_confirmations, before.confirmations);
    assert.equal(result.deleted.inboxes, 2);
    assert.ok(result.deleted.inbox_messages >= 1);

    assert.equal(result.seeded.seeded, true);
    assert.equal(result.seeded.sites, DEMO_SITES);
    assert.equal(result.seeded.services_added, DEMO_SERVICES.length, 'the catalog a fresh organization has, restored');
    assert.equal(await total('/api/qrcodes'), DEMO_SITES);
    assert.equal(await total('/api/appointment_schedule'), result.seeded.appointments);
    assert.ok((result.seeded.appointments ?? 0) > 100);
    assert.equal(await total('/api/background-tasks'), 2);
    assert.equal(await total('/api/service-confirmations'), 1, "only the seed's check-in, sent again with a broken signature");
    assert.equal(await total('/api/import-handlers'), 0);
    const servicesAfter = await ok<Page<{ name: string; code: string }>>(
      server.request(`/api/services?organization_uuid=${orgA}&per_page=100`),
    );
    assert.deepEqual(servicesAfter.items.map((s) => `${s.name}/${s.code}`).sort(), DEMO_SERVICES.map((s) => `${s.name}/${s.code}`).sort());
    const webhooks = await ok<Page<{ uuid: string; url: string }>>(server.request(`/api/webhooks?organization_uuid=${orgA}`));
    const inboxes = await ok<Page<{ uuid: string; url: string; message_count: number }>>(
      server.request(`/api/inboxes?organization_uuid=${orgA}`),
    );
    assert.equal(webhooks.total, 2);
    assert.ok(!webhooks.items.some((w) => w.uuid === webhookBefore?.uuid), 'new webhooks');
    assert.deepEqual(webhooks.items.map((w) => w.url).sort(), inboxes.items.map((i) => i.url).sort(), 'to the new demo inboxes');
    assert.equal(result.seeded.flaky_inbox_url !== undefined && result.seeded.broken_signature_message_uuid !== undefined, true);
    assert.equal((await server.request(`/api/inboxes/uuid/${inboxBefore.uuid}`)).status, 404, 'the old inbox is gone');

    // Kept: the API keys, the settings, and the caller's session.
    const keys = await ok<{ items: { name: string }[] }>(server.request('/api/api-keys'));
    assert.ok(['Reset viewer', 'Reset editor'].every((name) => keys.items.some((k) => k.name === name)));
    assert.equal((await ok<{ webhook_retry_schedule: string }>(server.request('/api/settings'))).webhook_retry_schedule, 'fast');
    assert.equal((await server.request('/api/session')).status, 200);

    // The uploads of A's imports are gone; B's stays.
    assert.equal(fs.existsSync(path.join(uploads, 'a-left.upload')), false);
    assert.equal(fs.existsSync(path.join(uploads, 'b-left.upload')), true);

    assert.deepEqual(await snapshot(server, demo.other.organization_uuid, demo.otherAuth), bBefore, 'organization B is untouched');

    const steps = [...new Set(events.map((e) => e.step))];
    assert.deepEqual(steps, [1, 2, 3, 4, 5, 6], 'every step reported, in order');
    assert.equal(events.at(-1)?.done, true);
    assert.ok(
      events.some((e) => e.step === 4 && e.progress === 100),
      'the site import reports its progress',
    );
  });

  it('refuses a viewer and an editor (403) and another organization (403), changing nothing', async () => {
    const qrcodes = await total('/api/qrcodes');
    for (const [auth, who] of [
      [demo.viewerAuth, 'viewer'],
      [demo.editorAuth, 'editor'],
    ] as const) {
      const res = await reset(server, orgA, auth);
      assert.equal(res.status, 403, who);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'FORBIDDEN');
      assert.match(body.error.message, /admin role/);
    }
    const foreign = await reset(server, orgA, demo.otherAuth);
    assert.equal(foreign.status, 403);
    assert.equal(await total('/api/qrcodes'), qrcodes);
    const missing = await server.request('/api/demo/reset', jsonBody({}));
    assert.equal(missing.status, 400);
  });

  it('deletes a delivery whose attempt is in flight; the attempt ends without harm and deliveries go on', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const hanging = http.createServer((req, res) => {
      arrived++;
      req.resume();
      void released.then(() => res.writeHead(200).end('late'));
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow`;
      const hook = await post('/api/webhooks/register', { organization_uuid: orgA, url, events: ['service_confirmation.delivery'] });
      await post('/api/service-confirmations/simulate', { organization_uuid: orgA, event: 'service_confirmation.delivery' });
      await waitFor('the attempt to reach the slow receiver', () => (arrived > 0 ? true : undefined));
      const deliveries = await ok<Page<{ delivery_id: string }>>(
        server.request(`/api/webhooks/uuid/${hook.uuid}/deliveries?organization_uuid=${orgA}`),
      );
      const inFlight = deliveries.items[0]?.delivery_id;
      assert.ok(inFlight);
      const settled: string[] = [];
      const unsubscribe = server.ctx.live.subscribe((event) => {
        if (event.type === 'delivery.attempt') settled.push((event.data as { delivery_id: string }).delivery_id);
      });
      await ok(reset(server, orgA));
      release();
      await waitFor("the deleted delivery's attempt to settle", () => (settled.includes(inFlight) ? true : undefined));
      unsubscribe();
      // The outbox still works: the new demo webhook delivers to the new demo inbox.
      await post('/api/service-confirmations/simulate', { organization_uuid: orgA, event: 'service_confirmation.check_in' });
      const inbox = (await ok<Page<{ uuid: string }>>(server.request(`/api/inboxes?organization_uuid=${orgA}`))).items[0];
      assert.ok(inbox);
      await waitFor('the new check-in in the new demo inbox', async () =>
        (await total(`/api/inboxes/uuid/${inbox.uuid}/messages`)) > 0 ? true : undefined,
      );
    } finally {
      release();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});

describe('POST /api/demo/reset while an import runs', () => {
  it('answers 409 in plain words and deletes nothing; once the import has finished it resets', async () => {
    await withGatedImports(async (server, openGate) => {
      const org = server.organizationUuid;
      const { task, status } = await startHeldImport(server, '1 Collins Street, Melbourne VIC 3000');
      assert.ok(['PENDING', 'PROCESSING'].includes(await status()));

      const refused = await server.request('/api/demo/reset', jsonBody({ organization_uuid: org }));
      assert.equal(refused.status, 409);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'CONFLICT');
      assert.match(
        body.error.message,
        new RegExp(`An import of this organization is still running \\(task ${task}, (PENDING|PROCESSING)\\)\\. Nothing was deleted\\.`),
      );
      assert.ok(['PENDING', 'PROCESSING'].includes(await status()), 'the import was not stopped');
      const tasks = (await (await server.request(`/api/background-tasks?organization_uuid=${org}`)).json()) as Page<unknown>;
      assert.equal(tasks.total, 1, 'nothing deleted');

      openGate();
      await waitFor('the held import to finish', async () => ((await status()) === 'COMPLETED' ? true : undefined));
      const done = await server.request('/api/demo/reset', jsonBody({ organization_uuid: org }));
      assert.equal(done.status, 200, await done.clone().text());
      assert.equal(
        (await server.request(`/api/background-tasks/uuid/${task}`)).status,
        404,
        'the finished import was deleted with the rest',
      );
    });
  });
});
