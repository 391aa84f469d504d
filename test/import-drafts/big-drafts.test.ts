/**
 * Drafts past one block of 1,024 row ids and at 100,000 rows: pages found by seeking through the
 * kept counts agree with the rows in the database, the counts follow every kind of change, a
 * change a stopped server left half written is undone, and the event loop answers other
 * requests while a 100,000-row draft opens and while a replace changes every row of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_IMPORT_LIMITS } from '../../server/imports/limits.ts';
import { startImportTestServer } from '../support/imports.ts';
import { jsonBody, type TestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { type DraftBody, type DraftRowBody, draftRows, editCell, importFile, json } from './support.ts';

const BIG = 100_000;

const post = (server: TestServer, path: string, body: unknown = {}) => server.request(path, jsonBody(body));

/** Given rows, every third with a type the import does not know. */
function givenRows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    row_number: i + 2,
    values: { name: `Site ${i + 1}`, location: '1 High Street, Carlton VIC 3053', type: i % 3 === 0 ? 'depot!' : 'DEPOT' },
  }));
}

/** The row ids of a list as the database holds them, in order. */
function listed(server: TestServer, uuid: string, problemsOnly: boolean): number[] {
  const filter = problemsOnly ? `state = 'open' and problem is not null` : `state != 'deleted'`;
  return server.ctx.db.sqlite
    .prepare(`select row_id from import_draft_rows where draft_uuid = ? and ${filter} order by row_id`)
    .pluck()
    .all(uuid) as number[];
}

async function draftOf(server: TestServer, uuid: string): Promise<DraftBody> {
  return json<DraftBody>(await server.request(`/api/import-drafts/uuid/${uuid}`), 200);
}

/** Every page checked against the database: the total, and the rows at offsets around the blocks' edges. */
async function assertPagesAgree(server: TestServer, uuid: string) {
  const draft = await draftOf(server, uuid);
  for (const problemsOnly of [false, true]) {
    const ids = listed(server, uuid, problemsOnly);
    assert.equal(problemsOnly ? draft.rows_with_problems : draft.rows, ids.length, `kept count (problems only: ${problemsOnly})`);
    for (const offset of [0, 1, 339, 340, 341, 1000, 1022, 1023, 1024, 1500, 2047, ids.length - 1, ids.length]) {
      const page = await draftRows(server, uuid, `?offset=${offset}&limit=7&problems_only=${problemsOnly}`);
      assert.equal(page.total, ids.length);
      assert.deepEqual(
        page.rows.map((r) => r.row_id),
        ids.slice(offset, offset + 7),
        `page at ${offset} (problems only: ${problemsOnly})`,
      );
    }
  }
  return draft;
}

describe('import drafts past one block and at 100,000 rows', () => {
  const server = suiteServer(() => startImportTestServer({ imports: { limits: { ...DEFAULT_IMPORT_LIMITS, maxStoredExcluded: BIG } } }));

  it('pages anywhere in the list and in the rows with problems, with counts kept through every change', async () => {
    const draft = await json<DraftBody>(await post(server, '/api/import-drafts', { kind: 'qrcodes', rows: givenRows(3000) }), 201);
    assert.equal(draft.rows, 3000);
    assert.equal(draft.rows_with_problems, 1000);
    await assertPagesAgree(server, draft.uuid);
    const base = `/api/import-drafts/uuid/${draft.uuid}`;

    await json(await post(server, `${base}/delete-rows`, { row_ids: [1, 2, 1024, 1030, 2999] }), 200);
    await editCell(server, draft.uuid, 4, 'type', 'SITE');
    await editCell(server, draft.uuid, 5, 'type', 'nowhere!');
    await json(await post(server, `${base}/fill-down`, { column: 'type', from_row_id: 7, to_row_id: 1100 }), 200);
    let now = await assertPagesAgree(server, draft.uuid);
    assert.equal(now.rows, 2995);

    // A replace over every row, then undone: the counts and pages come back with the rows.
    const replaced = await json<{ changed: number; draft: DraftBody }>(
      await post(server, `${base}/replace`, { column: 'type', find: 'depot!', replace: 'SITE', whole_cell: true }),
      200,
    );
    assert.ok(replaced.changed > 500);
    await assertPagesAgree(server, draft.uuid);
    await json(await post(server, `${base}/undo`), 200);
    now = await assertPagesAgree(server, draft.uuid);
    assert.equal(now.last_action, 'Fill down type from row 7');
    await json(await post(server, `${base}/undo`), 200);
    await json(await post(server, `${base}/undo`), 200);
    await json(await post(server, `${base}/undo`), 200);
    await json(await post(server, `${base}/undo`), 200);
    now = await assertPagesAgree(server, draft.uuid);
    assert.equal(now.rows, 3000);
    assert.equal(now.rows_with_problems, 1000);
    assert.equal(now.can_undo, false);

    const search = await draftRows(server, draft.uuid, '?search=site%202999&problems_only=false');
    assert.deepEqual(
      search.rows.map((r) => r.row_id),
      [2999],
    );
  });

  it('undoes a change that a stopped server left half written, and removes a draft left half opened', async () => {
    const draft = await json<DraftBody>(await post(server, '/api/import-drafts', { kind: 'qrcodes', rows: givenRows(2500) }), 201);
    const base = `/api/import-drafts/uuid/${draft.uuid}`;
    await json(await post(server, `${base}/replace`, { column: 'name', find: 'Site', replace: 'Place' }), 200);
    const sqlite = server.ctx.db.sqlite;
    // As a server stopped between two chunks leaves it: the edit not complete.
    sqlite.prepare('update import_draft_edits set complete = 0 where draft_uuid = ?').run(draft.uuid);
    const page = await draftRows(server, draft.uuid, '?offset=2400&limit=2');
    assert.deepEqual(
      page.rows.map((r: DraftRowBody) => r.cells.name),
      ['Site 2401', 'Site 2402'],
    );
    const after = await draftOf(server, draft.uuid);
    assert.equal(after.can_undo, false);
    assert.equal(after.rows_with_problems, 834);

    // A draft whose rows were never all written is not shown, and the next draft opened removes it.
    sqlite.prepare('update import_drafts set ready = 0 where uuid = ?').run(draft.uuid);
    assert.equal((await server.request(base)).status, 404);
    await json(await post(server, '/api/import-drafts', { kind: 'qrcodes', rows: givenRows(1) }), 201);
    const left = sqlite.prepare('select count(*) from import_draft_rows where draft_uuid = ?').pluck().get(draft.uuid);
    assert.equal(left, 0);
    assert.equal(sqlite.prepare('select count(*) from import_drafts where uuid = ?').pluck().get(draft.uuid), 0);
  });

  it('answers other requests while a 100,000-row draft opens and while a replace changes every row', async () => {
    const lines = ['location,name,type'];
    for (let i = 1; i <= BIG; i++) lines.push(`"${i} High Street, Carlton VIC 3053",Site ${i},depot!`);
    const task = await importFile(server, '/api/qrcodes/bulk', `${lines.join('\n')}\n`, 'depots.csv');
    assert.equal(task.status, 'COMPLETED');
    const sqlite = server.ctx.db.sqlite;
    const finished: string[] = [];
    /** Waits until the database shows the chunked work under way (a chunk written, more to come). */
    const underWay = async (sql: string) => {
      while (!sqlite.prepare(sql).get()) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const otherRequest = async () => {
      const res = await server.request(`/api/background-tasks/uuid/${task.uuid}`);
      assert.equal(res.status, 200);
      finished.push('other request');
    };

    const opening = post(server, '/api/import-drafts', { background_task_uuid: task.uuid }).then(async (res) => {
      finished.push('open');
      return json<DraftBody>(res, 201);
    });
    await underWay('select 1 from import_draft_rows r join import_drafts d on d.uuid = r.draft_uuid where d.ready = 0 limit 1');
    await otherRequest();
    const draft = await opening;
    assert.deepEqual(finished, ['other request', 'open']);
    assert.equal(draft.rows, BIG);
    assert.equal(draft.rows_with_problems, BIG);

    finished.length = 0;
    const base = `/api/import-drafts/uuid/${draft.uuid}`;
    const replacing = post(server, `${base}/replace`, { column: 'type', find: 'depot!', replace: 'DEPOT' }).then(async (res) => {
      finished.push('replace');
      return json<{ changed: number; rechecked: number }>(res, 200);
    });
    await underWay('select 1 from import_draft_edits where complete = 0');
    // The same draft's rows wait for the whole replace: never half replaced.
    const reading = draftRows(server, draft.uuid, `?offset=${BIG - 1}&limit=1`).then((page) => {
      finished.push('rows of the draft');
      return page;
    });
    await otherRequest();
    const replaced = await replacing;
    const last = await reading;
    assert.deepEqual(finished, ['other request', 'replace', 'rows of the draft']);
    assert.equal(replaced.changed, BIG);
    assert.equal(replaced.rechecked, 1000);
    assert.equal(last.rows[0]?.cells.type, 'DEPOT');

    const undone = await json<{ changed: number; draft: DraftBody }>(await post(server, `${base}/undo`), 200);
    assert.equal(undone.changed, BIG);
    assert.equal(undone.draft.rows_with_problems, BIG);
    const middle = await draftRows(server, draft.uuid, `?offset=${BIG / 2}&limit=1&problems_only=true`);
    assert.equal(middle.rows[0]?.cells.type, 'depot!');
    assert.equal(middle.rows[0]?.row_id, BIG / 2 + 1);
  });
});
