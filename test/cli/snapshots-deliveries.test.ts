import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Delivery } from '../../server/webhooks/schemas.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { runCli } from '../support/cli.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';

interface Page<T> {
  items: T[];
  total: number;
}

describe('qr-sandbox snapshot, reset and deliveries, as processes against serve --port 0', () => {
  let server: ChildServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let down = true;
  const cli = (...args: string[]) => runCli([...args, '--data-dir', server.dataDir, '--url', server.url]);
  const org = () => server.organizationUuid;
  const ok = async <T>(pathname: string, init?: RequestInit): Promise<T> => {
    const res = await server.request(pathname, init);
    const text = await res.text();
    assert.ok(res.status < 300, `${pathname}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const post = <T>(pathname: string, body: unknown, method = 'POST') =>
    ok<T>(pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const qrNames = async () => (await ok<Page<{ name: string }>>(`/api/qrcodes?organization_uuid=${org()}`)).items.map((q) => q.name).sort();

  before(async () => {
    server = await startChildServer();
    receiver = await startReceiver(() => (down ? { status: 503, body: 'down' } : { status: 200, body: 'ok' }));
  });
  after(async () => {
    await server.stop();
    await receiver.close();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('snapshot save, list, restore, delete and reset --empty --yes', async () => {
    await post('/api/qrcodes', { organization_uuid: org(), location: '1 Collins Street, Melbourne VIC 3000', name: 'Kept' });
    const saved = await cli('snapshot', 'save', 'baseline');
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stdout, /^Saved snapshot baseline \([\d.]+ KB\): 1 QR code, 0 appointments/);

    const listed = await cli('snapshot', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^NAME\s+SIZE\s+SAVED\nbaseline\s+[\d.]+ KB\s+\d{4}-\d\d-\d\dT/);
    const json = (await cli('snapshot', 'list', '--json')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string });
    assert.deepEqual(
      json.map((s) => s.name),
      ['baseline'],
    );

    await post('/api/qrcodes', {
      organization_uuid: org(),
      location: '2 Collins Street, Melbourne VIC 3000',
      name: 'Made by the test run',
    });
    assert.deepEqual(await qrNames(), ['Kept', 'Made by the test run']);
    const restored = await cli('snapshot', 'restore', 'baseline');
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored snapshot baseline of .*: 1 QR code, .*replacing 2 QR codes/);
    assert.deepEqual(await qrNames(), ['Kept']);
    const found = await ok<Page<unknown>>(`/api/qrcodes?organization_uuid=${org()}&search=collins`);
    assert.equal(found.total, 1, 'the search index is as the snapshot');

    const unknown = await cli('snapshot', 'restore', 'nope');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Snapshot "nope" .*not found/);
    const bad = await cli('snapshot', 'save', '../escape');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /letters, digits/);
    const taken = await cli('snapshot', 'save', 'baseline');
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /exists.*--force/);
    assert.equal((await cli('snapshot', 'save', 'baseline', '--force')).code, 0);

    const unconfirmed = await cli('reset', '--empty');
    assert.equal(unconfirmed.code, 2);
    assert.match(unconfirmed.stderr, /qr-sandbox reset --empty --yes/);
    assert.deepEqual(await qrNames(), ['Kept'], 'nothing deleted without --yes');
    const reset = await cli('reset', '--empty', '--yes');
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /^Emptied the organization: deleted 1 QR code, /);
    assert.deepEqual(await qrNames(), []);
    assert.equal((await cli('snapshot', 'restore', 'baseline', '--json')).code, 0, 'the key still works after a reset and a restore');
    assert.deepEqual(await qrNames(), ['Kept']);

    const deleted = await cli('snapshot', 'delete', 'baseline');
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal((await cli('snapshot', 'delete', 'baseline')).code, 2);
    const empty = await cli('snapshot', 'list');
    assert.match(empty.stderr, /No snapshots yet/);
  });

  it('deliveries list and deliveries redeliver --failed', async () => {
    const webhook = await post<{ uuid: string }>('/api/webhooks/register', {
      organization_uuid: org(),
      url: `${receiver.url}/hook`,
      events: ['service_confirmation.check_in'],
      sandbox_diagnostics: true,
    });
    await post('/api/service-confirmations/simulate', { organization_uuid: org(), event: 'service_confirmation.check_in' });
    const deliveries = `/api/webhooks/deliveries?organization_uuid=${org()}&webhook_uuid=${webhook.uuid}`;
    await waitFor('the first attempt', async () => ((await ok<Page<Delivery>>(deliveries)).items[0]?.attempts.length ? true : undefined));
    await post(`/api/webhooks/uuid/${webhook.uuid}`, { is_active: false }, 'PATCH');
    await waitFor('the failed delivery', async () =>
      (await ok<Page<Delivery>>(`${deliveries}&status=failed`)).total === 1 ? true : undefined,
    );

    const table = await cli('deliveries', 'list', '--status', 'failed', '--since', '1h');
    assert.equal(table.code, 0, table.stderr);
    const [header, row, ...rest] = table.stdout.trim().split('\n');
    assert.match(header ?? '', /^CREATED\s+DELIVERY ID\s+EVENT\s+WEBHOOK\s+STATUS\s+LAST ATTEMPT$/);
    assert.match(row ?? '', new RegExp(`service_confirmation\\.check_in\\s+${webhook.uuid}\\s+failed\\s+#1 503`));
    assert.deepEqual(rest, []);
    const lines = (await cli('deliveries', 'list', '--json', '--webhook', webhook.uuid)).stdout.trim().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as Delivery);
    assert.equal(parsed.length, 1);
    assert.equal(parsed[0]?.status, 'failed');
    const none = await cli('deliveries', 'list', '--status', 'pending');
    assert.match(none.stderr, /No deliveries match/);
    assert.equal((await cli('deliveries', 'list', '--status', 'lost')).code, 2);
    assert.equal((await cli('deliveries', 'list', '--since', 'yesterday')).code, 2);

    const missing = await cli('deliveries', 'redeliver');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs --failed/);
    const skipped = await cli('deliveries', 'redeliver', '--failed');
    assert.match(skipped.stdout, /Redelivered 0 failed deliveries\.\nSkipped 1: their webhook is inactive/);

    await post(`/api/webhooks/uuid/${webhook.uuid}`, { is_active: true }, 'PATCH');
    down = false;
    const sent = receiver.received.length;
    const redelivered = await cli('deliveries', 'redeliver', '--failed', '--since', '1h', '--webhook', webhook.uuid);
    assert.equal(redelivered.code, 0, redelivered.stderr);
    assert.match(redelivered.stdout, /^Redelivered 1 failed delivery\./);
    await waitFor('the delivery to arrive again', () => (receiver.received.length > sent ? true : undefined));
    assert.equal(receiver.received.at(-1)?.headers['x-sandbox-delivery-id'], parsed[0]?.delivery_id);
    await waitFor('the delivery to be delivered', async () =>
      (await ok<Page<Delivery>>(`${deliveries}&status=delivered`)).total === 1 ? true : undefined,
    );
    const again = JSON.parse((await cli('deliveries', 'redeliver', '--failed', '--json')).stdout) as { redelivered: number };
    assert.equal(again.redelivered, 0);
  });
});
