import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { addressCsv, startCsvImport, startImportTestServer } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import SQLite from 'better-sqlite3';
import { databasePath } from '../../server/db/database.ts';
import { suiteServer } from '../support/suite-server.ts';

const ROWS = 40_000;
const ORDER = ['PENDING', 'PROCESSING', 'COMPLETED'];

/** What a client may see of a task at any moment: its status, progress and results agree. */
function assertCoherent(task: BackgroundTask, where: string): void {
  assert.ok(ORDER.includes(task.status), `${where}: status ${task.status}`);
  assert.equal(task.error_message, null, where);
  if (task.status === 'COMPLETED') {
    assert.equal(task.progress, 100, where);
    const results = task.results as { inserted: number; excluded: number } | null;
    assert.ok(results, `${where}: a COMPLETED task has results`);
    assert.equal(results.inserted + results.excluded, ROWS, `${where}: every row counted`);
  } else {
    assert.equal(task.results, null, `${where}: no results before COMPLETED`);
    assert.ok(task.progress >= 0 && task.progress < 100, `${where}: progress ${task.progress}`);
    if (task.status === 'PENDING') assert.equal(task.progress, 0, where);
  }
}

/**
 * Polls (by uuid and in the list) back to back while a background import writes in its worker and
 * events are recorded on the server's connection: every answer is 200 and a coherent task, and
 * the task only moves forward.
 */
describe('polling a task while its import runs', () => {
  const server = suiteServer(startImportTestServer);

  it('every poll sees a consistent task, and writes made meanwhile succeed', async () => {
    const uuid = await startCsvImport(server, addressCsv(ROWS, 'POLL'), 'poll.csv');

    const seen: BackgroundTask[] = [];
    let done = false;
    const pollByUuid = async () => {
      while (!done) {
        const res = await server.request(`/api/background-tasks/uuid/${uuid}`);
        assert.equal(res.status, 200);
        const task = (await res.json()) as BackgroundTask;
        assertCoherent(task, `poll ${seen.length}`);
        const last = seen.at(-1);
        if (last) {
          assert.ok(ORDER.indexOf(task.status) >= ORDER.indexOf(last.status), `status went from ${last.status} to ${task.status}`);
          assert.ok(task.progress >= last.progress, `progress went from ${last.progress} to ${task.progress}`);
        }
        seen.push(task);
        if (task.status === 'COMPLETED') done = true;
      }
    };
    const pollList = async () => {
      let polls = 0;
      while (!done) {
        const res = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=100`);
        assert.equal(res.status, 200);
        const page = (await res.json()) as { items: BackgroundTask[]; total: number };
        assert.equal(page.total, page.items.length);
        const task = page.items.find((t) => t.uuid === uuid);
        assert.ok(task, 'the task is listed');
        assertCoherent(task, `list ${polls++}`);
      }
    };
    const recordEvents = async () => {
      let events = 0;
      while (!done) {
        const res = await server.request(
          '/api/service-confirmations/simulate',
          jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
        );
        // Before the first QR code is committed there is nothing to simulate with.
        if (res.status === 404 || res.status === 409) continue;
        assert.equal(res.status, 201, await res.text());
        events++;
      }
      return events;
    };
    const [, , events] = await Promise.all([pollByUuid(), pollList(), recordEvents()]);

    assert.ok(seen.length >= 2, 'polled more than once');
    assert.notEqual(seen[0]?.status, 'COMPLETED', 'the first poll came while the import was running');
    assert.equal(seen.at(-1)?.status, 'COMPLETED');
    assert.ok(events > 0, 'events were recorded while the import ran');
  });

  it('a poll answers what was committed last, by another connection or by the server itself', async () => {
    const uuid = await startCsvImport(server, addressCsv(10, 'POLL'), 'small.csv');
    const read = async () => {
      const one = (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as BackgroundTask;
      const page = (await (
        await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=100`)
      ).json()) as { items: BackgroundTask[] };
      return { one, listed: page.items.find((t) => t.uuid === uuid) };
    };
    while ((await read()).one.status !== 'COMPLETED') await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 3; i++) await read();

    const other = new SQLite(databasePath(server.dataDir));
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare('update background_tasks set error_message = ? where uuid = ?').run('changed elsewhere', uuid);
    } finally {
      other.close();
    }
    let seen = await read();
    assert.equal(seen.one.error_message, 'changed elsewhere');
    assert.equal(seen.listed?.error_message, 'changed elsewhere');

    await server.ctx.db.kysely.updateTable('background_tasks').set({ error_message: 'changed here' }).where('uuid', '=', uuid).execute();
    seen = await read();
    assert.equal(seen.one.error_message, 'changed here');
    assert.equal(seen.listed?.error_message, 'changed here');
  });
});
