import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sheetRow, workbook } from '../fixtures/hostile/generate.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { storedExcludedRows } from '../support/import-db.ts';

interface Task {
  status: string;
  error_message: string | null;
  results: Record<string, unknown> | null;
}

const GOOD = '1 High Street, Carlton VIC 3053';

async function post(server: ChildServer, bytes: Buffer, options: { json?: boolean; mode?: 'sync' | 'background'; endpoint?: string } = {}) {
  const endpoint = options.endpoint ?? `/api/qrcodes/bulk?processing_mode=${options.mode ?? 'sync'}`;
  if (options.json) {
    return server.request(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes });
  }
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', new Blob([bytes]), 'upload');
  return server.request(endpoint, { method: 'POST', body: form });
}

async function refused(res: Response, message: RegExp): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 400, text.slice(0, 300));
  const body = JSON.parse(text) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'VALIDATION_ERROR');
  assert.match(body.error.message, message);
}

async function finished(server: ChildServer, uuid: string): Promise<Task> {
  for (let i = 0; i < 12_000; i++) {
    const task = (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as Task;
    if (task.status === 'COMPLETED' || task.status === 'FAILED') return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${uuid} never ended`);
}

async function background(server: ChildServer, bytes: Buffer, json = false): Promise<string> {
  const res = await post(server, bytes, { json, mode: 'background' });
  assert.equal(res.status, 202, await res.clone().text());
  return ((await res.json()) as { background_task_uuid: string }).background_task_uuid;
}

const csv = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`);
const healthy = async (server: ChildServer) =>
  assert.equal((await server.request('/api/health')).status, 200, 'the server stopped answering');

describe('import limits, set small: each refused before its cost, with a message naming the limit and its flag', () => {
  let server: ChildServer;
  let tmp: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-limits-'));
    server = await startChildServer(path.join(tmp, 'data'), [
      '--max-cell-kb',
      '1',
      '--max-line-kb',
      '4',
      '--max-columns',
      '20',
      '--max-import-rows',
      '1000000',
      '--max-stored-excluded-rows',
      '100',
      '--max-xlsx-entry-mb',
      '2',
    ]);
  });
  after(async () => {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('cell size: a CSV cell over 1 KB', async () => {
    await refused(
      await post(server, csv(['name,location', `"${'n'.repeat(2000)}","${GOOD}"`])),
      /cell in row 2 .*longer than the limit of 1 KB \(serve --max-cell-kb\)/,
    );
  });

  it('line length: a CSV row over 4 KB of short cells', async () => {
    const cells = Array.from({ length: 10 }, () => 'v'.repeat(500));
    await refused(
      await post(server, csv(['name,location', `Depot,"${GOOD}",${cells.join(',')}`])),
      /Row 2 .*longer than the limit of 4 KB \(serve --max-line-kb\)/,
    );
  });

  it('columns: a header or a data row over 20 columns', async () => {
    const wide = Array.from({ length: 30 }, (_, i) => `c${i}`);
    await refused(
      await post(server, csv([['name', 'location', ...wide].join(','), `Depot,"${GOOD}"`])),
      /more than 20 columns.*--max-columns/,
    );
    await refused(
      await post(server, csv(['name,location', `Depot,"${GOOD}",${wide.join(',')}`])),
      /Row 2 .*more than 20 columns.*--max-columns/,
    );
  });

  it('JSON: an element over the line limit, a string over the cell limit', async () => {
    const org = server.organizationUuid;
    const longElement = JSON.stringify([
      { organization_uuid: org, location: GOOD, extra: Array.from({ length: 10 }, () => 'e'.repeat(500)) },
    ]);
    await refused(
      await post(server, Buffer.from(longElement), { json: true }),
      /Element 0 .*longer than the limit of 4 KB \(serve --max-line-kb\)/,
    );
    const longString = JSON.stringify([{ organization_uuid: org, location: 'l'.repeat(2000) }]);
    await refused(
      await post(server, Buffer.from(longString), { json: true }),
      /string in element 0 .*longer than the limit of 1 KB \(serve --max-cell-kb\)/,
    );
  });

  it('a workbook part that unpacks to more than 2 MB, refused at upload and by the preview', async () => {
    const rows = [sheetRow(1, ['name', 'location'])];
    for (let r = 2; rows.length < 40_000; r++) rows.push(sheetRow(r, [Math.random().toString(36), GOOD]));
    const big = workbook(rows.join(''));
    await refused(await post(server, big, { mode: 'background' }), /sheet1\.xml unpacks to more than 2 MB \(serve --max-xlsx-entry-mb\)/);
    const form = new FormData();
    form.set('kind', 'qrcodes');
    form.set('organization_uuid', server.organizationUuid);
    form.set('file', new Blob([big]), 'big.xlsx');
    await refused(await server.request('/api/imports/preview', { method: 'POST', body: form }), /unpacks to more than 2 MB/);
  });

  it('excluded rows: a 5,000-element array of numbers keeps 100 with their cells, counts all 5,000, and the report says so', async () => {
    const uuid = await background(server, Buffer.from(`[${Array.from({ length: 5000 }, () => '1').join(',')}]`), true);
    const task = await finished(server, uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    assert.equal(task.results?.excluded_count, 5000);
    assert.equal(storedExcludedRows(server.dataDir, uuid), 100);
    const report = await (await server.request(`/api/qrcodes/bulk/${uuid}/errors?format=csv`)).text();
    const lines = report.trim().split('\r\n');
    assert.equal(lines.length, 1 + 100 + 1, 'header, 100 rows and the note');
    assert.match(
      lines.at(-1) ?? '',
      /4,900 more excluded rows are not listed: the import kept the first 100 of 5,000 .*--max-stored-excluded-rows/,
    );
  });

  it('a 20 MB JSON array of 10 million numbers stops at the row limit and stores 100 excluded rows, not 10 million', async () => {
    const array = Buffer.concat([Buffer.from('['), Buffer.alloc(2 * 10_000_000 - 1, '1,'), Buffer.from(']')]);
    const uuid = await background(server, array, true);
    const task = await finished(server, uuid);
    assert.equal(task.status, 'FAILED');
    assert.match(task.error_message ?? '', /more than 1,000,000 data rows, the limit of one import \(serve --max-import-rows\)/);
    assert.equal(storedExcludedRows(server.dataDir, uuid), 100);
    await healthy(server);
  });
});

describe('workbook bombs are refused while streaming, and concurrent imports all complete', () => {
  let server: ChildServer;
  let tmp: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bombs-'));
    server = await startChildServer(path.join(tmp, 'data'), ['--import-workers', '4']);
  });
  after(async () => {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a workbook with one 32 MB cell and one whose sheet is compressed 1000 to 1, four of each at once: 400s naming the limit', async () => {
    const cell = workbook(sheetRow(1, ['name', 'location']) + sheetRow(2, ['x'.repeat(32 * 1024 * 1024), GOOD]));
    const ratio = workbook(sheetRow(1, ['name', 'location']) + '<x/>'.repeat(8 * 1024 * 1024));
    assert.ok(cell.length < 100_000 && ratio.length < 100_000, 'small files');
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => post(server, cell, { mode: 'background' })),
      ...Array.from({ length: 4 }, () => post(server, ratio, { mode: 'background' })),
      server.request('/api/health'),
    ]);
    for (const res of answers.slice(0, 4))
      await refused(res, /cell of the workbook .*longer than the limit of 1,024 KB \(serve --max-cell-kb\)/);
    for (const res of answers.slice(4, 8)) await refused(res, /compressed more than 200 to 1 \(the limit, serve --max-xlsx-ratio\)/);
    assert.equal(answers[8]?.status, 200);
    await healthy(server);
  });

  for (const count of [2, 4]) {
    it(`${count} imports at once all complete (writers wait for the lock, never "database is locked")`, async () => {
      const rows = Array.from({ length: 20_000 }, (_, i) => `Import row ${i},"${i % 300} High Street, Carlton VIC 3053"`);
      const uuids = await Promise.all(
        Array.from({ length: count }, (_, n) => background(server, csv(['name,location', ...rows.map((r) => `${n}-${r}`)]))),
      );
      const tasks = await Promise.all(uuids.map((uuid) => finished(server, uuid)));
      for (const task of tasks) {
        assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
        assert.equal(Number(task.results?.inserted ?? 0) + Number(task.results?.updated ?? 0), 20_000);
      }
      // The server's own writes meanwhile (the webhook outbox, tasks) waited for the lock too.
      const log = fs.readFileSync(path.join(server.dataDir, 'logs', 'qr-sandbox.log'), 'utf8');
      assert.doesNotMatch(log, /database is locked/);
    });
  }
});
