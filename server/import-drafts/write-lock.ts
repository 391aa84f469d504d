import { type Db, waitingForLock } from '../db/database.ts';

/**
 * Runs `work` in one IMMEDIATE transaction on the server's connection. When an import holds the
 * write lock, BEGIN fails at once (the server's connection never sleeps in SQLite's busy handler)
 * and it is tried again on a timer, without blocking the event loop (waitingForLock).
 */
export function writeTransaction<T>(db: Db, work: () => T): Promise<T> {
  const run = db.sqlite.transaction(work);
  return waitingForLock(db.sqlite, async () => run.immediate());
}
