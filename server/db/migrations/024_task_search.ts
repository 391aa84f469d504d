import { sql, type Kysely } from 'kysely';

/**
 * The task search's index: every trigram of a task's uuid, file name and error message (FTS5,
 * trigram tokenizer), keyed by the task's seq and read back from background_tasks through a view
 * (external content: nothing is stored twice). Tasks are few and written rarely (a status change,
 * not a row per imported row), so triggers keep it: on insert, on a change of the error message,
 * on delete. A dry run's scratch copy of background_tasks goes without them (imports/preview/scratch-db.ts).
 * Also: who asked to cancel an import (its worker stops at the next batch), and the task that
 * retried a failed one (its kept upload passed to that task).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create view task_search_content as
    select seq, uuid, json_extract(metadata, '$.filename') as filename, error_message from background_tasks`.execute(db);
  await sql`create virtual table task_search using fts5(uuid, filename, error_message, content='task_search_content', content_rowid='seq', tokenize='trigram', detail=none, columnsize=0)`.execute(
    db,
  );
  const removeOld = sql`insert into task_search (task_search, rowid, uuid, filename, error_message)
      values ('delete', old.seq, old.uuid, json_extract(old.metadata, '$.filename'), old.error_message);`;
  const addNew = sql`insert into task_search (rowid, uuid, filename, error_message)
      values (new.seq, new.uuid, json_extract(new.metadata, '$.filename'), new.error_message);`;
  await sql`create trigger task_search_insert after insert on background_tasks begin ${addNew} end`.execute(db);
  await sql`create trigger task_search_update after update of error_message on background_tasks
    when old.error_message is not new.error_message
  begin ${removeOld} ${addNew} end`.execute(db);
  await sql`create trigger task_search_delete after delete on background_tasks begin ${removeOld} end`.execute(db);
  await sql`insert into task_search (task_search) values ('rebuild')`.execute(db);
  await sql`alter table import_jobs add column cancel_requested_by text`.execute(db);
  await sql`alter table import_jobs add column retried_by text`.execute(db);
}
