/**
 * GET /api/background-tasks?search=: a task found by its file name, its uuid or its error text,
 * through the trigram index (migration 024), in an organization that holds many tasks.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { makeTask } from '../e2e/support/seed.ts';
import { addressCsv, startCsvImport, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

const MANY = 20_000;

describe('task search', () => {
  const server = suiteServer(startImportTestServer);
  const search = async (term: string, extra = '') => {
    const res = await server.request(
      `/api/background-tasks?organization_uuid=${server.organizationUuid}&search=${encodeURIComponent(term)}${extra}`,
    );
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { items: BackgroundTask[]; total: number; pages: number };
  };

  it('finds tasks by file name, uuid and error message among 20,000, ignoring case', async () => {
    const db = server.ctx.db.sqlite;
    const insert = db.prepare(
      `insert into background_tasks (uuid, task_id, task_type, status, progress, created_by_uuid, metadata, organization_uuid, results, error_message, created_on, updated_on)
       values (@uuid, @task_id, @task_type, @status, @progress, @created_by_uuid, @metadata, @organization_uuid, @results, @error_message, @created_on, @updated_on)`,
    );
    const wanted = makeTask(server.organizationUuid, {
      metadata: { filename: 'Depot Zentrale – märz 2026.xlsx', import_type: 'qr_code', source: 'file' },
      status: 'FAILED',
      results: null,
      error_message: 'The file has no column "location" (it has: Site, Adresse).',
    });
    db.transaction(() => {
      for (let i = 0; i < MANY; i++) {
        const task = i === 1_000 ? wanted : makeTask(server.organizationUuid, { metadata: { filename: `sites-${i}.csv` } });
        insert.run({ ...task, metadata: JSON.stringify(task.metadata), results: JSON.stringify(task.results) });
      }
      const zebra = makeTask(server.organizationUuid, { metadata: { filename: 'zebra.csv' } });
      insert.run({ ...zebra, metadata: JSON.stringify(zebra.metadata), results: JSON.stringify(zebra.results) });
    })();
    for (const term of ['DEPOT zentrale', 'märz 2026', 'Adresse', wanted.uuid, wanted.uuid.slice(0, 13).toUpperCase()]) {
      const page = await search(term);
      assert.deepEqual(
        page.items.map((task) => task.uuid),
        [wanted.uuid],
        `"${term}" finds the one task`,
      );
      assert.equal(page.total, 1);
    }
    const many = await search('sites-1', '&per_page=5&page=2');
    assert.equal(many.total, 11_110, 'sites-1, -10…19, -100…199, -1000…1999 (but -1000, the wanted task), -10000…19999');
    assert.equal(many.items.length, 5);
    assert.ok(many.items.every((task) => String(task.metadata?.filename).includes('sites-1')));
    assert.equal((await search('no such file anywhere')).total, 0);
    assert.equal((await search('MÄRZ')).total, 0, 'case is ignored for ASCII letters only, as SQLite LIKE does');
    assert.equal((await search('%')).total, 0, 'LIKE wildcards are text');
  });

  it('filters by status and type together with the search, and one or two characters look among the newest 10,000', async () => {
    const failed = await search('Adresse', '&status=FAILED&task_type=QR_IMPORT');
    assert.equal(failed.total, 1);
    assert.equal((await search('Adresse', '&status=COMPLETED')).total, 0);
    const short = await search('ZE');
    assert.deepEqual(
      short.items.map((task) => task.metadata?.filename),
      ['zebra.csv'],
      '"Zentrale" is older than the newest 10,000 tasks; zebra.csv is the newest',
    );
    assert.equal((await search('si')).total, 9_999, 'the newest 10,000 are zebra.csv and sites-10001…19999; no older task is read');
  });

  it('indexes a task as an import creates it and again when it fails', async () => {
    const uuid = await startCsvImport(server, addressCsv(3, 'SEARCH'), `quarterly-${randomUUID().slice(0, 8)}.csv`);
    const task = await waitForTask(server, uuid);
    assert.equal(task.status, 'COMPLETED');
    const name = task.metadata?.filename as string;
    assert.deepEqual(
      (await search(name)).items.map((found) => found.uuid),
      [uuid],
    );
    await server.ctx.db.kysely
      .updateTable('background_tasks')
      .set({ status: 'FAILED', error_message: 'Zebra crossing exploded' })
      .where('uuid', '=', uuid)
      .execute();
    assert.deepEqual(
      (await search('zebra crossing')).items.map((found) => found.uuid),
      [uuid],
    );
  });
});
