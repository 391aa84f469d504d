/**
 * Migration 026 on excluded rows a server at 025 left: each gets the row number the error report
 * gave it until then (index + 1 + the header row for a file, index + 1 for JSON).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseAt, migrateUpTo } from '../support/migrated-database.ts';

describe('migration 026: the row numbers of the excluded rows there are', () => {
  it('numbers a workbook row under its header row, a CSV row under line 1 and a JSON element from 1', async () => {
    const { sqlite, db, organizationUuid } = await databaseAt('025_import_draft_counts');
    try {
      const now = new Date().toISOString();
      const task = sqlite.prepare(
        `insert into background_tasks (uuid, task_id, task_type, status, progress, created_by_uuid, organization_uuid, created_on, updated_on)
         values (?, ?, 'QR_IMPORT', 'COMPLETED', 100, 'a-key', ?, ?, ?)`,
      );
      const job = sqlite.prepare(
        `insert into import_jobs (task_uuid, kind, organization_uuid, upload_file, format, options, created_on, updated_on)
         values (?, 'qrcodes', ?, 'uploads/x', ?, ?, ?, ?)`,
      );
      const excluded = sqlite.prepare(
        `insert into import_excluded_rows (task_uuid, row_index, error, echo, cells) values (?, ?, 'bad', '{}', '[]')`,
      );
      const imports = [
        ['book', 'xlsx', { kindOptions: { fileLayout: { sheet: 'Sites', headerRow: 3 } } }],
        ['csv', 'csv', { kindOptions: {} }],
        ['json', 'json', { kindOptions: {} }],
      ] as const;
      for (const [uuid, format, options] of imports) {
        task.run(uuid, uuid, organizationUuid, now, now);
        job.run(uuid, organizationUuid, format, JSON.stringify({ source: 'file', maxRows: null, ...options }), now, now);
        excluded.run(uuid, 4);
      }

      await migrateUpTo(db, '026_excluded_row_numbers');
      const numbers = sqlite.prepare('select task_uuid, row_number from import_excluded_rows order by task_uuid').all();
      assert.deepEqual(numbers, [
        { task_uuid: 'book', row_number: 8 },
        { task_uuid: 'csv', row_number: 6 },
        { task_uuid: 'json', row_number: 5 },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
