import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Temporal } from 'temporal-polyfill';
import { DEMO_SCHEDULE_DAYS } from '../../server/demo/demo-appointments.ts';
import { startDemoMode, type DemoMode } from '../../server/demo/demo-mode.ts';
import { DEMO_SITES } from '../../server/demo/seed.ts';
import { DEMO_SERVICES } from '../../server/services/demo.ts';
import { spawnServe } from '../support/cli.ts';
import { jsonBody, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

interface Page<T> {
  items: T[];
  total: number;
  pages: number;
}

interface Task {
  uuid: string;
  status: string;
  task_type: string;
  created_on: string;
  metadata: { filename?: string } | null;
  results: { inserted: number; excluded: number; upserted: number };
}

interface Appointment {
  appointment_date: string;
  start_date_time: string;
  timezone_name: string;
  service: string;
  job_reference_id: string | null;
  qr_code_uuid: string;
  duration: number;
}

describe('demo mode', () => {
  let server: TestServer;
  let demo: DemoMode;
  const org = () => `organization_uuid=${server.organizationUuid}`;
  const list = async <T>(path: string) =>
    (await (await server.request(`${path}${path.includes('?') ? '&' : '?'}${org()}&per_page=100`)).json()) as Page<T>;

  before(async () => {
    server = await startTestServer();
    demo = await startDemoMode(server, 300);
  });
  after(async () => {
    await demo.stop();
    await server.stop();
  });

  const all = async <T>(path: string) => {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const answer = (await (await server.request(`${path}?${org()}&per_page=100&page=${page}`)).json()) as Page<T>;
      items.push(...answer.items);
      if (page >= answer.pages) return items;
    }
  };

  it('fills an empty organization: a finished import with excluded rows, located sites, a webhook to an inbox', async () => {
    const tasks = await list<Task>('/api/background-tasks?task_type=QR_IMPORT');
    assert.equal(tasks.total, 1);
    assert.equal(tasks.items[0]?.status, 'COMPLETED');
    assert.equal(tasks.items[0]?.results.inserted, DEMO_SITES);
    assert.ok((tasks.items[0]?.results.excluded ?? 0) >= 3, 'the demo shows excluded rows');

    const qrcodes = await list<{ timezone_name: string | null; suburb: string | null }>('/api/qrcodes');
    assert.equal(qrcodes.total, DEMO_SITES);
    assert.ok(
      qrcodes.items.every((q) => q.timezone_name?.startsWith('Australia/') && q.suburb),
      'every site located in Australia',
    );
    assert.ok(new Set(qrcodes.items.map((q) => q.suburb)).size > 50, 'across many suburbs');

    const inboxes = await list<{ name: string; url: string }>('/api/inboxes');
    const webhooks = await list<{ url: string; events: string[] }>('/api/webhooks');
    assert.deepEqual(inboxes.items.map((i) => i.name).sort(), ['Demo inbox', 'Flaky app']);
    assert.deepEqual(webhooks.items.map((w) => w.url).sort(), inboxes.items.map((i) => i.url).sort(), 'a webhook to each inbox');
    assert.ok(webhooks.items.every((w) => w.events.length === 3));
  });

  it("has the demo service catalog and a week of appointments from today, in each site's local time", async () => {
    const services = await list<{ name: string }>('/api/services');
    assert.deepEqual(services.items.map((s) => s.name).sort(), DEMO_SERVICES.map((s) => s.name).sort());

    const tasks = await list<Task>('/api/background-tasks?task_type=APPOINTMENT_IMPORT');
    assert.equal(tasks.total, 1, 'one appointment import');
    const task = tasks.items[0];
    assert.ok(task);
    assert.equal(task.status, 'COMPLETED');
    assert.equal(task.metadata?.filename, 'demo-appointments-week.csv');
    assert.equal(task.results.excluded, 2, 'an unknown service and a date with a two-digit year are excluded');

    const appointments = await all<Appointment>('/api/appointment_schedule');
    assert.equal(appointments.length, task.results.upserted);
    assert.ok(appointments.length >= 150, `a busy week (${appointments.length} appointments)`);
    // "Today" is the date in each site's zone when the import ran.
    const seededAt = Temporal.Instant.from(task.created_on);
    const daysFromToday = new Set<number>();
    for (const a of appointments) {
      const today = seededAt.toZonedDateTimeISO(a.timezone_name).toPlainDate();
      const days = today.until(Temporal.PlainDate.from(a.appointment_date)).days;
      assert.ok(
        days >= 0 && days < DEMO_SCHEDULE_DAYS,
        `${a.appointment_date} is within the week from ${today.toString()} (${a.timezone_name})`,
      );
      assert.ok(a.timezone_name.startsWith('Australia/'));
      const local = Temporal.Instant.from(a.start_date_time).toZonedDateTimeISO(a.timezone_name);
      assert.ok(local.hour >= 7 && local.hour <= 16, `${a.start_date_time} is during working hours in ${a.timezone_name}`);
      daysFromToday.add(days);
    }
    assert.deepEqual([...daysFromToday].sort(), [0, 1, 2, 3, 4, 5, 6], 'every day of the week has appointments');
    const references = appointments.map((a) => a.job_reference_id);
    assert.ok(
      references.every((r) => r && /^WO-\d{5}$/.test(r)),
      'every appointment has a work order reference',
    );
    assert.equal(new Set(references).size, references.length);
    assert.ok(new Set(appointments.map((a) => a.qr_code_uuid)).size >= 20, 'at many sites');
    assert.ok(new Set(appointments.map((a) => a.timezone_name)).size >= 3, 'across time zones');
    assert.ok(appointments.every((a) => DEMO_SERVICES.some((s) => s.name === a.service)));
  });

  it('keeps simulated events coming, delivered to the inbox decrypted and valid', async () => {
    const inbox = (await list<{ uuid: string; name: string }>('/api/inboxes')).items.find((i) => i.name === 'Demo inbox');
    assert.ok(inbox);
    // The seed's own check-in (sent again with a broken signature) may come first, so wait for all three kinds.
    const messages = await waitFor('a check-in, a check-out and a delivery in the inbox', async () => {
      const page = await list<{ decrypted: boolean; signature_status: string; envelope: { type: string } | null }>(
        `/api/inboxes/uuid/${inbox.uuid}/messages?signature_status=valid`,
      );
      return new Set(page.items.map((m) => m.envelope?.type)).size === 3 ? page.items : undefined;
    });
    assert.ok(messages.every((m) => m.decrypted));
    assert.equal(new Set(messages.map((m) => m.envelope?.type)).size, 3, 'check-in, check-out and delivery');
  });

  it('changes nothing on a data dir that already has data', async () => {
    const again = await startDemoMode(server, 60_000);
    await again.stop();
    assert.match(again.summary.join(' '), /nothing added/);
    assert.equal((await list('/api/background-tasks')).total, 2);
    assert.equal((await list('/api/webhooks')).total, 2);
    assert.equal((await list('/api/qrcodes')).total, DEMO_SITES);
    assert.equal((await list('/api/appointment_schedule')).total, (await all('/api/appointment_schedule')).length);
  });
});

describe('demo mode on an organization someone already uses', () => {
  it('adds nothing: no sites, no appointments, no services, no webhook', async () => {
    const server = await startTestServer();
    try {
      const org = server.organizationUuid;
      const created = await server.request(
        '/api/qrcodes',
        jsonBody({ organization_uuid: org, location: '1 Collins Street, Melbourne VIC 3000' }),
      );
      assert.equal(created.status, 201);
      await server.request(`/api/services?organization_uuid=${org}`);
      const demo = await startDemoMode(server, 60_000);
      await demo.stop();
      assert.match(demo.summary.join(' '), /nothing added/);
      const total = async (path: string) =>
        ((await (await server.request(`${path}?organization_uuid=${org}`)).json()) as Page<unknown>).total;
      assert.equal(await total('/api/qrcodes'), 1);
      assert.equal(await total('/api/appointment_schedule'), 0);
      assert.equal(await total('/api/background-tasks'), 0);
      assert.equal(await total('/api/webhooks'), 0);
      assert.equal(await total('/api/inboxes'), 0);
      assert.equal(await total('/api/services'), DEMO_SERVICES.length, 'only the catalog a fresh organization has');
    } finally {
      await server.stop();
    }
  });
});

describe('serve --demo', () => {
  it('says what it prepared and stops cleanly', async () => {
    const serve = await spawnServe(['--data-dir', tempDataDir(), '--demo']);
    try {
      await waitFor('the demo summary', () => (/Demo events: .* every 5 s/.test(serve.output()) ? true : undefined), 60_000);
      assert.match(
        serve.output(),
        /Demo data: a finished import of 300 demo sites \(5 rows excluded\), \d+ appointments over the next 7 days/,
      );
      const link = /Sign in\s+(http:\/\/[^/\s]+)\/#key=(\S+)/.exec(serve.output());
      assert.ok(link?.[1] && link[2], 'the sign-in link is printed');
      const session = await fetch(`${link[1]}/api/session`, { headers: { authorization: `Bearer ${link[2]}` } });
      assert.equal(
        ((await session.json()) as { organization_name: string }).organization_name,
        'Demo Organization',
        'serve --demo names its organization the demo one',
      );
    } finally {
      assert.equal(await serve.stop('SIGINT'), 0, serve.output());
    }
  });
});
