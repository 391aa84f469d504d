import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../server/db/database.ts';

/** Excluded rows an import stored (with their cells), read from the data dir's database. */
export function storedExcludedRows(dataDir: string, taskUuid: string): number {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from import_excluded_rows where task_uuid = ?').get(taskUuid) as { n: number }).n;
  } finally {
    db.close();
  }
}
