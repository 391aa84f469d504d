import { sql, type Kysely } from 'kysely';

/**
 * Import drafts (server/import-drafts/): the excluded rows of an import or a preview, opened for
 * fixing in place. A draft's rows are keyed by (draft, row id) in row order; the partial index
 * finds the rows that still have a problem, and the import index maps the rows of the import that
 * fixes them back to the draft. Each edit keeps the rows as they were before it (the undo history).
 * The task columns are not foreign keys: a task insert or delete would then look for drafts that name it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table import_drafts (
    uuid text primary key,
    organization_uuid text not null references organizations(uuid),
    kind text not null,
    source_task_uuid text,
    options text not null,
    status text not null check (status in ('open', 'importing')),
    import_task_uuid text,
    last_import text,
    created_by_uuid text not null,
    created_on text not null,
    updated_on text not null
  )`.execute(db);
  await sql`create index import_drafts_by_org on import_drafts (organization_uuid, created_on)`.execute(db);
  await sql`create index import_drafts_by_source on import_drafts (organization_uuid, source_task_uuid)`.execute(db);
  await sql`create table import_draft_rows (
    draft_uuid text not null references import_drafts(uuid) on delete cascade,
    row_id integer not null,
    row_number integer,
    cells text not null,
    search_text text not null,
    problem text,
    problem_column text,
    state text not null check (state in ('open', 'deleted', 'imported')),
    checked integer not null default 1,
    import_index integer,
    primary key (draft_uuid, row_id)
  ) without rowid`.execute(db);
  await sql`create index import_draft_rows_problems on import_draft_rows (draft_uuid, row_id) where problem is not null and state = 'open'`.execute(
    db,
  );
  // Not partial: SQLite would not pick a partial index for import_index = ? over the key's draft_uuid prefix.
  await sql`create index import_draft_rows_import on import_draft_rows (draft_uuid, import_index)`.execute(db);
  await sql`create table import_draft_edits (
    draft_uuid text not null references import_drafts(uuid) on delete cascade,
    seq integer not null,
    action text not null,
    rows integer not null,
    created_on text not null,
    primary key (draft_uuid, seq)
  ) without rowid`.execute(db);
  await sql`create table import_draft_history (
    draft_uuid text not null,
    seq integer not null,
    row_id integer not null,
    cells text not null,
    search_text text not null,
    problem text,
    problem_column text,
    state text not null,
    checked integer not null,
    primary key (draft_uuid, seq, row_id),
    foreign key (draft_uuid, seq) references import_draft_edits(draft_uuid, seq) on delete cascade
  ) without rowid`.execute(db);
}
