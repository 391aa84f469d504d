import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { runCli } from '../support/cli.ts';

describe('trigger --data takes null where the service confirmation allows it', () => {
  let server: ChildServer;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-trigger-nulls-'));
  before(async () => {
    server = await startChildServer();
  });
  after(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function triggered(event: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const file = path.join(tmp, `${event}.json`);
    fs.writeFileSync(file, JSON.stringify(data));
    const run = await runCli(['trigger', event, '--data', file, '--json', '--data-dir', server.dataDir]);
    assert.equal(run.code, 0, run.stderr);
    const { confirmation_uuid: uuid } = JSON.parse(run.stdout) as { confirmation_uuid: string };
    const res = await server.request(`/api/service-confirmations/uuid/${uuid}`);
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, unknown>;
  }

  it('a delivery without an image, a check-out without images or check-in time: null as given, not generated', async () => {
    const delivery = await triggered('delivery', { delivery_image_url: null, checked_in_at: null });
    assert.equal(delivery.delivery_image_url, null);
    assert.equal(delivery.checked_in_at, null);
    const checkOut = await triggered('check_out', { checkout_image_urls: null, checked_in_at: null });
    assert.equal(checkOut.checkout_image_urls, null);
    assert.equal(checkOut.checked_in_at, null);
    assert.match(String(checkOut.checked_out_at), /^\d{4}-\d\d-\d\dT/, 'what was left out is still generated');
  });
});
