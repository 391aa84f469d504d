import type SQLite from 'better-sqlite3';
import { type Db, waitingForLock } from './database.ts';
import { outsideTransaction } from './outside-transaction.ts';
import { perDatabase } from './prepared.ts';

/** BEGIN IMMEDIATE, COMMIT and ROLLBACK, prepared once per database (db.sqlite.transaction(work) makes four wrappers per call). */
const controlOf = perDatabase((db) => ({
  begin: db.sqlite.prepare('BEGIN IMMEDIATE'),
  commit: db.sqlite.prepare('COMMIT'),
  rollback: db.sqlite.prepare('ROLLBACK'),
}));

/** What better-sqlite3's transaction().immediate() does, on statements prepared once. */
function runImmediate<T>(sqlite: SQLite.Database, control: ReturnType<typeof controlOf>, work: () => T): T {
  control.begin.run();
  try {
    const result = work();
    if (result && typeof (result as { then?: unknown }).then === 'function') {
      throw new TypeError('Transaction function cannot return a promise');
    }
    control.commit.run();
    return result;
  } catch (error) {
    if (sqlite.inTransaction) control.rollback.run();
    throw error;
  }
}

/**
 * Runs `work` as one synchronous IMMEDIATE transaction on the server's connection (prepared
 * statements, no promise per statement, nothing can interleave). It first waits for any open kysely
 * transaction to end; when an import holds the write lock, BEGIN fails having done nothing and the
 * whole transaction is tried again on a timer (waitingForLock), so `work` must not change anything
 * but the database. `committed` runs right after the commit, before anything else can touch the connection.
 */
export function writeNow<T>(db: Db, work: () => T, committed?: (result: T) => void): Promise<T> {
  const control = controlOf(db);
  return waitingForLock(db.sqlite, async () => {
    // A kysely transaction can open again while this waits: check until none is open.
    for (let open = outsideTransaction(db); open; open = outsideTransaction(db)) await open;
    const result = runImmediate(db.sqlite, control, work);
    committed?.(result);
    return result;
  });
}
