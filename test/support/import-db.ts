import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../server/db/database.ts';

/** `read` on the data dir's database, opened read-only and closed afterwards. */
function readDatabase<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Excluded rows an import stored (with their cells), read from the data dir's database. */
export function storedExcludedRows(dataDir: string, taskUuid: string): number {
  return readDatabase(
    dataDir,
    (db) => (db.prepare('select count(*) as n from import_excluded_rows where task_uuid = ?').get(taskUuid) as { n: number }).n,
  );
}

/** How many times the import of this task has been started (import_jobs.attempts), read from the data folder's database. */
export function jobAttempts(dataDir: string, uuid: string): number {
  return readDatabase(
    dataDir,
    (db) => (db.prepare('select attempts from import_jobs where task_uuid = ?').get(uuid) as { attempts: number }).attempts,
  );
}
