import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { eventually } from '../support/eventually.ts';
import { childPids } from '../support/processes.ts';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

async function importCsv(server: ChildServer, csv: string): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', new Blob([csv]), 'sites.csv');
  const res = await server.request('/api/qrcodes/bulk?processing_mode=sync', { method: 'POST', body: form });
  const body = (await res.json()) as { results?: Record<string, unknown> };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.results ?? body;
}

function sites(from: number, count: number): string {
  const lines = ['name,location'];
  for (let i = from; i < from + count; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? [];
    lines.push(`Site ${i},"${i} High Street, ${suburb} ${state} ${postcode}"`);
  }
  return `${lines.join('\n')}\n`;
}

describe('idle import workers and upload readers end (serve --worker-idle-seconds)', () => {
  let dir: string;
  let server: ChildServer;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-idle-'));
    server = await startChildServer(dir, ['--worker-idle-seconds', '1']);
  });
  after(async () => {
    await server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends the processes an import used once they have nothing to do, and the next import starts new ones', async () => {
    const serverPid = server.child.pid as number;
    const first = await importCsv(server, sites(0, 50));
    assert.equal(first.inserted, 50);
    const used = childPids(serverPid);
    assert.ok(used.length > 0, 'the import ran in a worker process');
    // Each ends one idle second after its last work.
    await eventually(() => !used.some(alive), 'the idle worker and reader processes ended', 15_000);
    assert.deepEqual(childPids(serverPid), []);

    const second = await importCsv(server, sites(50, 50));
    assert.equal(second.inserted, 50);
    const total = (await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=1`)).json()) as {
      total?: number;
      meta?: { total?: number };
    };
    assert.equal(total.total ?? total.meta?.total, 100);
  });
});
