/**
 * Migration 025 on drafts a server at 024 left: each draft's counts and its blocks' counts are
 * filled from its rows, and the trigger then keeps them through a change of a row.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseAt, migrateUpTo } from '../support/migrated-database.ts';

describe('migration 025: the counts of the drafts there are', () => {
  it('counts each draft and each block of its rows, and the trigger keeps them', async () => {
    const { sqlite, db, organizationUuid } = await databaseAt('024_task_search');
    try {
      const now = new Date().toISOString();
      const draft = sqlite.prepare(
        `insert into import_drafts (uuid, organization_uuid, kind, source_task_uuid, options, status, created_by_uuid, created_on, updated_on)
         values (?, ?, 'qrcodes', null, '{}', 'open', 'a-key', ?, ?)`,
      );
      draft.run('draft-a', organizationUuid, now, now);
      draft.run('draft-b', organizationUuid, now, now);
      const row = sqlite.prepare(
        `insert into import_draft_rows (draft_uuid, row_id, cells, search_text, problem, state) values (?, ?, '{}', '', ?, ?)`,
      );
      // draft-a: 2,100 rows over three blocks; every 4th deleted, every 5th imported, the odd ones with a problem.
      for (let id = 1; id <= 2100; id++) {
        const state = id % 4 === 0 ? 'deleted' : id % 5 === 0 ? 'imported' : 'open';
        row.run('draft-a', id, id % 2 === 1 ? 'a problem' : null, state);
      }
      row.run('draft-b', 1, null, 'open');

      await migrateUpTo(db, '025_import_draft_counts');
      const counts = (uuid: string) =>
        sqlite.prepare('select row_count, problem_count, imported_count from import_drafts where uuid = ?').get(uuid);
      const expected = (uuid: string) =>
        sqlite
          .prepare(
            `select sum(state != 'deleted') as row_count, sum(state = 'open' and problem is not null) as problem_count,
               sum(state = 'imported') as imported_count from import_draft_rows where draft_uuid = ?`,
          )
          .get(uuid);
      assert.deepEqual(counts('draft-a'), expected('draft-a'));
      assert.deepEqual(counts('draft-b'), { row_count: 1, problem_count: 0, imported_count: 0 });
      const blocks = () =>
        sqlite.prepare("select block, rows, problems from import_draft_blocks where draft_uuid = 'draft-a' order by block").all();
      const expectedBlocks = () =>
        sqlite
          .prepare(
            `select row_id >> 10 as block, sum(state != 'deleted') as rows, sum(state = 'open' and problem is not null) as problems
             from import_draft_rows where draft_uuid = 'draft-a' group by row_id >> 10 order by block`,
          )
          .all();
      assert.equal(blocks().length, 3);
      assert.deepEqual(blocks(), expectedBlocks());

      // A change of a row's state or problem moves the counts with it.
      sqlite.prepare("update import_draft_rows set state = 'deleted' where draft_uuid = 'draft-a' and row_id = 1025").run();
      sqlite.prepare("update import_draft_rows set problem = 'new' where draft_uuid = 'draft-a' and row_id = 2").run();
      sqlite.prepare("update import_draft_rows set state = 'imported', problem = null where draft_uuid = 'draft-a' and row_id = 3").run();
      assert.deepEqual(counts('draft-a'), expected('draft-a'));
      assert.deepEqual(blocks(), expectedBlocks());
    } finally {
      await db.destroy();
    }
  });
});
