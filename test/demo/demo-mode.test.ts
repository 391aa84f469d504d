import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDemoMode, type DemoMode } from '../../server/demo/demo-mode.ts';
import { DEMO_SITES } from '../../server/demo/seed.ts';
import { spawnServe } from '../support/cli.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

interface Page<T> {
  items: T[];
  total: number;
}

describe('demo mode', () => {
  let server: TestServer;
  let demo: DemoMode;
  const org = () => `organization_uuid=${server.organizationUuid}`;
  const list = async <T>(path: string) => (await (await server.request(`${path}${path.includes('?') ? '&' : '?'}${org()}&per_page=100`)).json()) as Page<T>;

  before(async () => {
    server = await startTestServer();
    demo = await startDemoMode(server, 300);
  });
  after(async () => {
    await demo.stop();
    await server.stop();
  });

  it('fills an empty organization: a finished import with excluded rows, located sites, a webhook to an inbox', async () => {
    const tasks = await list<{ status: string; task_type: string; results: { inserted: number; excluded: number } }>('/api/background-tasks');
    assert.equal(tasks.total, 1);
    assert.equal(tasks.items[0]?.status, 'COMPLETED');
    assert.equal(tasks.items[0]?.results.inserted, DEMO_SITES);
    assert.ok((tasks.items[0]?.results.excluded ?? 0) >= 3, 'the demo shows excluded rows');

    const qrcodes = await list<{ timezone_name: string | null; suburb: string | null }>('/api/qrcodes');
    assert.equal(qrcodes.total, DEMO_SITES);
    assert.ok(qrcodes.items.every((q) => q.timezone_name?.startsWith('Australia/') && q.suburb), 'every site located in Australia');
    assert.ok(new Set(qrcodes.items.map((q) => q.suburb)).size > 50, 'across many suburbs');

    const inboxes = await list<{ url: string }>('/api/inboxes');
    const webhooks = await list<{ url: string; events: string[] }>('/api/webhooks');
    assert.equal(webhooks.items[0]?.url, inboxes.items[0]?.url);
    assert.equal(webhooks.items[0]?.events.length, 3);
  });

  it('keeps simulated events coming, delivered to the inbox decrypted and valid', async () => {
    const inbox = (await list<{ uuid: string }>('/api/inboxes')).items[0];
    assert.ok(inbox);
    const messages = await waitFor('three demo events in the inbox', async () => {
      const page = await list<{ decrypted: boolean; signature_status: string; envelope: { type: string } | null }>(`/api/inboxes/uuid/${inbox.uuid}/messages`);
      return page.total >= 3 ? page.items : undefined;
    });
    assert.ok(messages.every((m) => m.decrypted && m.signature_status === 'valid'));
    assert.equal(new Set(messages.map((m) => m.envelope?.type)).size, 3, 'check-in, check-out and delivery');
  });

  it('changes nothing on a data dir that already has data', async () => {
    const again = await startDemoMode(server, 60_000);
    await again.stop();
    assert.match(again.summary.join(' '), /nothing added/);
    assert.equal((await list('/api/background-tasks')).total, 1);
    assert.equal((await list('/api/webhooks')).total, 1);
    assert.equal((await list('/api/qrcodes')).total, DEMO_SITES);
  });
});

describe('serve --demo', () => {
  it('says what it prepared and stops cleanly', async () => {
    const serve = await spawnServe(['--data-dir', tempDataDir(), '--demo']);
    try {
      await waitFor('the demo summary', () => (/Demo events: .* every 5 s/.test(serve.output()) ? true : undefined), 60_000);
      assert.match(serve.output(), /Demo data: a finished import of demo sites/);
    } finally {
      assert.equal(await serve.stop('SIGINT'), 0, serve.output());
    }
  });
});
