import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { untilUploads } from '../support/uploads.ts';

const ROWS = 150_000;

interface Task {
  uuid: string;
  status: string;
  progress: number;
  results: Record<string, unknown> | null;
  error_message: string | null;
}

/** Rows without an external reference, so a resumed import that wrote a row twice would leave a duplicate. */
function writeCsv(file: string, rows: number): void {
  const lines = ['name,location'];
  for (let i = 0; i < rows; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? [];
    lines.push(`Site ${i},"${i} High Street, ${suburb} ${state} ${postcode}"`);
  }
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
}

async function task(server: ChildServer, uuid: string): Promise<Task> {
  return (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as Task;
}

/** Polls until the import is PROCESSING with some progress (bounded). */
async function untilMidImport(server: ChildServer, uuid: string, above: number): Promise<Task> {
  for (let i = 0; i < 6000; i++) {
    const current = await task(server, uuid);
    if (current.status === 'COMPLETED' || current.status === 'FAILED') return current;
    if (current.status === 'PROCESSING' && current.progress > above) return current;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the import never got going');
}

async function untilEnded(server: ChildServer, uuid: string): Promise<Task> {
  for (let i = 0; i < 6000; i++) {
    const current = await task(server, uuid);
    if (current.status === 'COMPLETED' || current.status === 'FAILED') return current;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the import never ended');
}

async function upload(server: ChildServer, file: string): Promise<string> {
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', await fs.openAsBlob(file), 'big.csv');
  const res = await server.request('/api/qrcodes/bulk', { method: 'POST', body: form });
  assert.equal(res.status, 202);
  return ((await res.json()) as { background_task_uuid: string }).background_task_uuid;
}

describe('crash and quit safety of imports (real server process)', () => {
  let dir: string;
  let csv: string;
  const servers: ChildServer[] = [];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-crash-'));
    csv = path.join(dir, 'big.csv');
    writeCsv(csv, ROWS);
  });
  after(async () => {
    for (const server of servers) await server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (dataDir: string) => {
    const server = await startChildServer(dataDir, [], { freshConnections: true });
    servers.push(server);
    return server;
  };

  it('resumes after a quit (SIGTERM) and after kill -9, ending COMPLETED with every row once', async () => {
    const dataDir = path.join(dir, 'data');
    let server = await start(dataDir);
    const uuid = await upload(server, csv);

    const beforeQuit = await untilMidImport(server, uuid, 0);
    assert.equal(beforeQuit.status, 'PROCESSING', 'the quit came in the middle of the import');
    assert.equal(await server.stop(), 0, 'a quit mid-import exits cleanly');

    server = await start(dataDir);
    const beforeKill = await untilMidImport(server, uuid, beforeQuit.progress);
    assert.equal(beforeKill.status, 'PROCESSING', 'kill -9 came in the middle of the resumed import');
    await server.kill();

    server = await start(dataDir);
    const ended = await untilEnded(server, uuid);
    assert.equal(ended.status, 'COMPLETED', ended.error_message ?? '');
    assert.equal(ended.progress, 100);
    assert.deepEqual([ended.results?.inserted, ended.results?.excluded, ended.results?.updated], [ROWS, 0, 0]);

    const list = (await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=1`)).json()) as {
      total: number;
    };
    assert.equal(list.total, ROWS, 'no row missing, none duplicated');
    await untilUploads(dataDir, 0, 'the finished upload was removed');

    const again = await untilEnded(server, await upload(server, csv));
    assert.deepEqual([again.results?.inserted, again.results?.updated], [0, ROWS], 'importing the same file again is idempotent');
    await server.stop();
  });

  it('marks an interrupted import FAILED with a message when its upload is gone', async () => {
    const dataDir = path.join(dir, 'data-gone');
    let server = await start(dataDir);
    const uuid = await upload(server, csv);
    const mid = await untilMidImport(server, uuid, 0);
    assert.equal(mid.status, 'PROCESSING');
    await server.kill();
    for (const name of fs.readdirSync(path.join(dataDir, 'uploads'))) fs.rmSync(path.join(dataDir, 'uploads', name));
    const orphan = path.join(dataDir, 'uploads', 'left-by-a-crash-mid-upload.upload');
    fs.writeFileSync(orphan, 'location\r\n');
    fs.utimesSync(orphan, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

    server = await start(dataDir);
    assert.equal(fs.existsSync(orphan), false, 'an upload without a task is removed at start');
    const ended = await task(server, uuid);
    assert.equal(ended.status, 'FAILED');
    assert.match(ended.error_message ?? '', /uploaded file is gone/);
    await server.stop();
  });
});
