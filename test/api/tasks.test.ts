import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { insertTask } from '../../server/tasks/store.ts';
import { cancelledMessage } from '../../server/imports/engine/engine.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { Page } from '../../server/http/pagination.ts';

const SPEC_TASK_FIELDS = [
  'uuid',
  'task_id',
  'task_type',
  'status',
  'progress',
  'created_by_uuid',
  'metadata',
  'organization_uuid',
  'results',
  'error_message',
  'created_on',
  'updated_on',
].sort();

type TaskPage = Page<BackgroundTask>;

/** Results as the importer writes them (task IMPORT from JSON, QR_IMPORT from a file), so answers match the document. */
const jsonResults = (n: number) => ({
  qr_code_inserted: n,
  qr_code_restored: 0,
  qr_code_tags_created: 0,
  excluded_qr_codes: [],
  qr_code_updated: 0,
  excluded_count: 0,
});
const fileResults = (n: number) => ({ inserted: n, excluded: 0, excluded_data: [], restored: 0, updated: 0, tags_created: 0 });

describe('background task API', () => {
  let server: TestServer;
  const seeded: BackgroundTask[] = [];

  before(async () => {
    server = await startTestServer();
    // 23 tasks: 12 QR_IMPORT (every other one FAILED), 11 IMPORT, oldest first.
    for (let i = 0; i < 23; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      const task: BackgroundTask = {
        uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        task_id: `task-${i}`,
        task_type: i % 2 === 0 ? 'QR_IMPORT' : 'IMPORT',
        status: i % 4 === 0 ? 'FAILED' : 'COMPLETED',
        progress: 100,
        created_by_uuid: 'user-1',
        metadata: i % 2 === 0 ? { filename: `file-${i}.csv`, import_type: 'csv', source: 'upload' } : null,
        organization_uuid: server.organizationUuid,
        results: i % 4 === 0 ? null : i % 2 === 0 ? fileResults(i) : jsonResults(i),
        error_message: i % 4 === 0 ? `failure ${i}` : null,
        created_on: at,
        updated_on: at,
      };
      await insertTask(server.ctx.db.kysely, task);
      seeded.push(task);
    }
  });
  after(() => server.stop());

  const list = async (query: string): Promise<TaskPage> => {
    const res = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}${query}`);
    assert.equal(res.status, 200);
    return (await res.json()) as TaskPage;
  };

  it('defaults to page 1 with 10 items, newest first, in the page shape of the service contract', async () => {
    const page = await list('');
    assert.deepEqual(Object.keys(page).sort(), ['items', 'page', 'pages', 'per_page', 'total']);
    assert.equal(page.page, 1);
    assert.equal(page.per_page, 10);
    assert.equal(page.total, 23);
    assert.equal(page.pages, 3);
    assert.equal(page.items.length, 10);
    assert.deepEqual(
      page.items.map((t) => t.task_id),
      seeded
        .slice(13)
        .reverse()
        .map((t) => t.task_id),
    );
  });

  it('computes pages and the last partial page, and answers an empty page past the end', async () => {
    const last = await list('&page=3');
    assert.equal(last.items.length, 3);
    assert.deepEqual(
      last.items.map((t) => t.task_id),
      ['task-2', 'task-1', 'task-0'],
    );
    const beyond = await list('&page=4');
    assert.equal(beyond.items.length, 0);
    assert.equal(beyond.total, 23);
    const sevens = await list('&per_page=7&page=4');
    assert.equal(sevens.pages, 4);
    assert.equal(sevens.items.length, 2);
    const all = await list('&per_page=100');
    assert.equal(all.items.length, 23);
    assert.equal(all.pages, 1);
  });

  it('filters by task_type and status', async () => {
    const qr = await list('&task_type=QR_IMPORT&per_page=100');
    assert.equal(qr.total, 12);
    assert.ok(qr.items.every((t) => t.task_type === 'QR_IMPORT'));
    const failed = await list('&status=FAILED');
    assert.equal(failed.total, 6);
    assert.ok(failed.items.every((t) => t.status === 'FAILED' && t.error_message !== null));
    const none = await list('&task_type=APPOINTMENT_IMPORT');
    assert.deepEqual({ total: none.total, pages: none.pages, items: none.items }, { total: 0, pages: 0, items: [] });
  });

  it('cancelled=true lists the imports someone cancelled (FAILED in the API), cancelled=false the others', async () => {
    const at = new Date(Date.UTC(2026, 0, 2)).toISOString();
    const cancelled: BackgroundTask = {
      ...(seeded[0] as BackgroundTask),
      uuid: '00000000-0000-4000-8000-0000000000cc',
      task_id: 'task-cancelled',
      error_message: cancelledMessage('Field laptop', 5000),
      created_on: at,
      updated_on: at,
    };
    await insertTask(server.ctx.db.kysely, cancelled);
    try {
      const only = await list('&status=FAILED&cancelled=true');
      assert.deepEqual(
        only.items.map((t) => t.uuid),
        [cancelled.uuid],
      );
      const others = await list('&status=FAILED&cancelled=false');
      assert.equal(others.total, 6, 'every failure that was not a cancel');
      assert.ok(others.items.every((t) => !t.error_message?.startsWith('Cancelled')));
      assert.equal((await list('&cancelled=false&per_page=100')).total, 23, 'completed tasks too');
    } finally {
      server.ctx.db.sqlite.prepare('delete from background_tasks where uuid = ?').run(cancelled.uuid);
    }
  });

  it('returns one task with exactly the fields of the service contract, JSON fields as objects', async () => {
    const target = seeded[4];
    assert.ok(target);
    const res = await server.request(`/api/background-tasks/uuid/${target.uuid}`);
    assert.equal(res.status, 200);
    const task = (await res.json()) as BackgroundTask;
    assert.deepEqual(Object.keys(task).sort(), SPEC_TASK_FIELDS);
    assert.deepEqual(task, target);
    const done = (await (await server.request(`/api/background-tasks/uuid/${seeded[5]?.uuid}`)).json()) as BackgroundTask;
    assert.deepEqual(done.results, jsonResults(5));
    assert.match(done.created_on, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('answers 404 in the error shape for an unknown task uuid', async () => {
    const res = await server.request('/api/background-tasks/uuid/5b0a5cd4-0000-4000-8000-000000000000');
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'NOT_FOUND');
    assert.match(body.error.message, /5b0a5cd4-0000-4000-8000-000000000000/);
  });
});
