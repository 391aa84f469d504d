import { sql, type Kysely } from 'kysely';

/**
 * Each excluded row keeps where it is in its file (imports/sources/row-numbers.ts): the sheet row,
 * the CSV line, the JSON element from 1. Rows stored before this get the number the error report
 * gave them until now: index + 1 for JSON, index + 1 + the header row for a file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_excluded_rows add column row_number integer`.execute(db);
  await sql`update import_excluded_rows set row_number = row_index + (
      select case when j.format = 'json' then 1
        else 1 + coalesce(json_extract(j.options, '$.kindOptions.fileLayout.headerRow'), 1) end
      from import_jobs j where j.task_uuid = import_excluded_rows.task_uuid)`.execute(db);
  await sql`update import_excluded_rows set row_number = row_index + 2 where row_number is null`.execute(db);
}
