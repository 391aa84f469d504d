import { sql, type Kysely } from 'kysely';

/** Rows per block of import_draft_blocks: row ids (row_id >> BLOCK_BITS) share a block. Kept in store.ts too. */
const BLOCK_BITS = 10;

/**
 * Import drafts at 100,000 rows: the counts a page answers with, kept instead of counted.
 * - import_drafts.row_count / problem_count / imported_count: the draft's rows not deleted, open
 *   rows with a problem, imported rows.
 * - import_draft_blocks: the same two counts per block of 1,024 row ids, so that the n-th row of
 *   the list (or of the rows with problems) is found by adding up a block's counts (a hundred
 *   blocks at 100,000 rows) and then stepping at most one block's rows (store.ts: seek).
 * The draft's rows are inserted by one statement (store.ts insertRows), which adds its counts
 * itself (a trigger per inserted row would slow the opening of a big draft); every change of a
 * row's state or problem afterwards goes through the trigger, in the changing transaction.
 * - import_drafts.ready = 0 while a big draft's rows are still being written in chunks (hidden);
 * - import_draft_edits.complete = 0 while a replace writes its chunks: an edit left incomplete by
 *   a stopped server is undone the next time the draft is read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_drafts add column row_count integer not null default 0`.execute(db);
  await sql`alter table import_drafts add column problem_count integer not null default 0`.execute(db);
  await sql`alter table import_drafts add column imported_count integer not null default 0`.execute(db);
  await sql`alter table import_drafts add column ready integer not null default 1`.execute(db);
  await sql`alter table import_draft_edits add column complete integer not null default 1`.execute(db);
  await sql`create table import_draft_blocks (
    draft_uuid text not null references import_drafts(uuid) on delete cascade,
    block integer not null,
    rows integer not null,
    problems integer not null,
    primary key (draft_uuid, block)
  ) without rowid`.execute(db);
  // The drafts there are, one at a time by organization (each statement reads by an index).
  const organizations = await sql<{ uuid: string }>`select uuid from organizations`.execute(db);
  for (const organization of organizations.rows) {
    const drafts = await sql<{ uuid: string }>`select uuid from import_drafts where organization_uuid = ${organization.uuid}`.execute(db);
    for (const draft of drafts.rows) {
      await sql`insert into import_draft_blocks (draft_uuid, block, rows, problems)
        select draft_uuid, row_id >> ${sql.lit(BLOCK_BITS)}, sum(state != 'deleted'), sum(state = 'open' and problem is not null)
        from import_draft_rows where draft_uuid = ${draft.uuid} group by row_id >> ${sql.lit(BLOCK_BITS)}`.execute(db);
      await sql`update import_drafts set
        row_count = (select count(*) from import_draft_rows where draft_uuid = ${draft.uuid} and state != 'deleted'),
        problem_count = (select count(*) from import_draft_rows where draft_uuid = ${draft.uuid} and state = 'open' and problem is not null),
        imported_count = (select count(*) from import_draft_rows where draft_uuid = ${draft.uuid} and state = 'imported')
        where uuid = ${draft.uuid}`.execute(db);
    }
  }
  const listed = (row: 'old' | 'new') => sql.raw(`(${row}.state != 'deleted')`);
  const problem = (row: 'old' | 'new') => sql.raw(`(${row}.state = 'open' and ${row}.problem is not null)`);
  const imported = (row: 'old' | 'new') => sql.raw(`(${row}.state = 'imported')`);
  await sql`create trigger import_draft_rows_counts after update of state, problem on import_draft_rows
    when old.state is not new.state or (old.problem is null) is not (new.problem is null)
  begin
    update import_drafts set
      row_count = row_count + ${listed('new')} - ${listed('old')},
      problem_count = problem_count + ${problem('new')} - ${problem('old')},
      imported_count = imported_count + ${imported('new')} - ${imported('old')}
    where uuid = new.draft_uuid;
    update import_draft_blocks set
      rows = rows + ${listed('new')} - ${listed('old')},
      problems = problems + ${problem('new')} - ${problem('old')}
    where draft_uuid = new.draft_uuid and block = new.row_id >> ${sql.lit(BLOCK_BITS)};
  end`.execute(db);
}
