import { sql, type Kysely } from 'kysely';

/**
 * Each excluded row keeps where it is in its file (imports/sources/row-numbers.ts): the sheet row,
 * the CSV line, the JSON element from 1. Rows stored before this get the number the error report
 * gave them until now: index + 1 for JSON, index + 1 + the header row for a file. One import at a
 * time, by organization (each statement reads by an index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_excluded_rows add column row_number integer`.execute(db);
  const organizations = await sql<{ uuid: string }>`select uuid from organizations`.execute(db);
  for (const organization of organizations.rows) {
    const jobs = await sql<{ task_uuid: string; format: string; header_row: number | null }>`
      select j.task_uuid, j.format, json_extract(j.options, '$.kindOptions.fileLayout.headerRow') as header_row
      from background_tasks t join import_jobs j on j.task_uuid = t.uuid
      where t.organization_uuid = ${organization.uuid}`.execute(db);
    for (const job of jobs.rows) {
      const offset = job.format === 'json' ? 1 : 1 + (job.header_row ?? 1);
      await sql`update import_excluded_rows set row_number = row_index + ${offset} where task_uuid = ${job.task_uuid}`.execute(db);
    }
  }
}
