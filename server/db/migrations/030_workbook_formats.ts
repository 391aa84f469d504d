import { sql, type Kysely } from 'kysely';

const COLUMNS = `task_uuid text primary key references background_tasks (uuid), kind text not null, organization_uuid text not null,
  upload_file text not null, format text not null check (format in (FORMATS)), options text not null, headers text,
  rows_done integer default 0 not null, counts text default '{}' not null, excluded_count integer default 0 not null,
  created_on text not null, updated_on text not null, attempts integer default 0 not null, cancel_requested_by text, retried_by text`;

/** import_jobs again with `format` allowing `formats` (SQLite changes a CHECK only by making the table anew); no other table refers to it. */
async function remake(db: Kysely<unknown>, formats: string[], keep: string): Promise<void> {
  const allowed = formats.map((f) => `'${f}'`).join(', ');
  await sql.raw(`create table import_jobs_next (${COLUMNS.replace('FORMATS', allowed)})`).execute(db);
  await sql.raw(`insert into import_jobs_next select * from import_jobs where ${keep}`).execute(db);
  await sql`drop table import_jobs`.execute(db);
  await sql`alter table import_jobs_next rename to import_jobs`.execute(db);
}

/** An import's format may be .xls or .ods too (read by SheetJS). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await remake(db, ['csv', 'xlsx', 'xls', 'ods', 'json'], 'true');
}

/** Back to CSV, XLSX and JSON: the jobs of .xls and .ods imports are dropped with it (their tasks stay). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await remake(db, ['csv', 'xlsx', 'json'], "format in ('csv', 'xlsx', 'json')");
}
