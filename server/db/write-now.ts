import { type Db, waitingForLock } from './database.ts';
import { outsideTransaction } from './outside-transaction.ts';

/**
 * Runs `work` as one synchronous IMMEDIATE transaction on the server's connection (prepared
 * statements, no promise per statement, nothing can interleave). It first waits for any open kysely
 * transaction to end; when an import holds the write lock, BEGIN fails having done nothing and the
 * whole transaction is tried again on a timer (waitingForLock), so `work` must not change anything
 * but the database. `committed` runs right after the commit, before anything else can touch the connection.
 */
export function writeNow<T>(db: Db, work: () => T, committed?: (result: T) => void): Promise<T> {
  const transaction = db.sqlite.transaction(work);
  return waitingForLock(db.sqlite, async () => {
    // A kysely transaction can open again while this waits: check until none is open.
    for (let open = outsideTransaction(db); open; open = outsideTransaction(db)) await open;
    const result = transaction.immediate();
    committed?.(result);
    return result;
  });
}
