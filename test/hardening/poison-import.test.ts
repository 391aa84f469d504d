import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { jobAttempts as attemptsOf } from '../support/import-db.ts';
import { untilUploads, uploadsIn } from '../support/uploads.ts';

interface Task {
  status: string;
  error_message: string | null;
  results: Record<string, unknown> | null;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, tries = 6000): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function upload(server: ChildServer, file: string): Promise<string> {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', await fs.openAsBlob(file), path.basename(file));
  const res = await server.request('/api/qrcodes/bulk', { method: 'POST', body: form });
  assert.equal(res.status, 202, await res.clone().text());
  return ((await res.json()) as { background_task_uuid: string }).background_task_uuid;
}

const taskOf = async (server: ChildServer, uuid: string) =>
  (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as Task;

const finished = (server: ChildServer, uuid: string) =>
  waitFor(`task ${uuid} to end`, async () => {
    const task = await taskOf(server, uuid);
    return task.status === 'COMPLETED' || task.status === 'FAILED' ? task : undefined;
  });

function writeRows(file: string, rows: number): void {
  const lines = ['name,location'];
  for (let i = 0; i < rows; i++) lines.push(`Site ${i},"${i % 200} High Street, Carlton VIC 3053"`);
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
}

describe('a poison import fails its task and never takes the server down', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-poison-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a worker that runs out of memory fails its task with a message naming the limit, keeps the upload for a retry; the server answers and imports again', async () => {
    // Cell and line limits lifted, so the 64 MB cell reaches the parser of a worker with a 48 MB heap.
    const server = await startChildServer(path.join(tmp, 'oom'), [
      '--import-worker-memory-mb',
      '48',
      '--max-cell-kb',
      '1000000',
      '--max-line-kb',
      '1000000',
    ]);
    try {
      const poison = path.join(tmp, 'poison.csv');
      const fd = fs.openSync(poison, 'w');
      fs.writeSync(fd, 'name,location\r\n"');
      const block = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 64; i++) fs.writeSync(fd, block);
      fs.writeSync(fd, '","1 High Street, Carlton VIC 3053"\r\n');
      fs.closeSync(fd);

      const uuid = await upload(server, poison);
      const task = await finished(server, uuid);
      assert.equal(task.status, 'FAILED');
      assert.match(task.error_message ?? '', /ran out of memory.*48 MB.*--import-worker-memory-mb/);
      assert.equal((await server.request('/api/health')).status, 200);
      // The crashed worker's upload is kept for a retry until it is discarded.
      assert.equal(uploadsIn(server.dataDir).length, 1, 'a FAILED import keeps its upload for a retry');
      assert.equal((await server.request(`/api/background-tasks/uuid/${uuid}/upload`, { method: 'DELETE' })).status, 204);
      await untilUploads(server.dataDir, 0, 'the discarded upload is gone');

      const good = path.join(tmp, 'good.csv');
      writeRows(good, 50);
      const next = await finished(server, await upload(server, good));
      assert.equal(next.status, 'COMPLETED', next.error_message ?? '');
      assert.equal(server.child.exitCode, null, 'the server exited');
    } finally {
      await server.stop();
    }
  });

  it('an import cut short twice (the server killed while it ran) is failed at the next start, not resumed again', async () => {
    const dataDir = path.join(tmp, 'killed');
    const file = path.join(tmp, 'rows.csv');
    writeRows(file, 300_000);
    let server = await startChildServer(dataDir);
    const uuid = await upload(server, file);
    for (let run = 1; run <= 2; run++) {
      // attempts counts the runs that started: kill the server once this run has begun.
      await waitFor(`run ${run} to start`, () => (attemptsOf(dataDir, uuid) >= run ? true : undefined));
      assert.equal((await taskOf(server, uuid)).status, 'PROCESSING', 'the import ended before the kill; make the file bigger');
      await server.kill();
      server = await startChildServer(dataDir);
    }
    try {
      const task = await finished(server, uuid);
      assert.equal(task.status, 'FAILED');
      assert.match(task.error_message ?? '', /cut short 2 times.*not resumed again/);
      assert.equal(attemptsOf(dataDir, uuid), 2);
      assert.equal((await server.request('/api/health')).status, 200);
    } finally {
      await server.stop();
    }
  });
});
