import { isBusy, SERVER_WRITE_WAIT_MS, type Db } from './database.ts';
import { outsideTransaction } from './outside-transaction.ts';

/**
 * Runs `work` as one synchronous IMMEDIATE transaction on the server's connection (prepared
 * statements, no promise per statement, nothing can interleave). It first waits for any open kysely
 * transaction to end; when an import holds the write lock, BEGIN fails having done nothing and the
 * whole transaction is tried again on a timer, so `work` must not change anything but the database.
 * `committed` runs right after the commit, before anything else can touch the connection.
 */
export async function writeNow<T>(db: Db, work: () => T, committed?: (result: T) => void): Promise<T> {
  const deadline = Date.now() + SERVER_WRITE_WAIT_MS;
  const transaction = db.sqlite.transaction(work);
  for (;;) {
    const open = outsideTransaction(db);
    if (open !== undefined) await open;
    if (db.sqlite.inTransaction) continue;
    try {
      const result = transaction.immediate();
      committed?.(result);
      return result;
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}
