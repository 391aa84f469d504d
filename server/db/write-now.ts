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

interface Write {
  work: () => unknown;
  committed: ((result: unknown) => void) | undefined;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** Its group failed: it runs in a transaction of its own. */
  alone: boolean;
}

/** The writes waiting for the connection, in order; one drain runs them. */
const queueOf = perDatabase(() => ({ writes: [] as Write[], draining: false }));

function runWork(work: () => unknown): unknown {
  const result = work();
  if (result && typeof (result as { then?: unknown }).then === 'function') {
    throw new TypeError('Transaction function cannot return a promise');
  }
  return result;
}

/**
 * Runs the queued writes in one IMMEDIATE transaction: all of them, or the first alone when it
 * failed in a group. BEGIN comes first, so writes that queue while it waits for the lock join.
 * When one write of a group throws, the group rolls back and each runs again in its own transaction.
 */
function commitGroup(sqlite: SQLite.Database, control: ReturnType<typeof controlOf>, writes: Write[]): void {
  control.begin.run();
  const end = writes[0]?.alone ? 1 : writes.findIndex((write) => write.alone);
  const group = writes.splice(0, end < 0 ? writes.length : end);
  const results: unknown[] = [];
  try {
    for (const write of group) results.push(runWork(write.work));
    control.commit.run();
  } catch (error) {
    try {
      if (sqlite.inTransaction) control.rollback.run();
    } catch (rollbackError) {
      for (const write of group) write.reject(rollbackError);
      return;
    }
    if (group.length === 1) group[0]?.reject(error);
    else writes.unshift(...group.map((write) => ({ ...write, alone: true })));
    return;
  }
  group.forEach((write, i) => {
    try {
      write.committed?.(results[i]);
      write.resolve(results[i]);
    } catch (error) {
      write.reject(error);
    }
  });
}

async function drain(db: Db): Promise<void> {
  const queue = queueOf(db);
  const control = controlOf(db);
  queue.draining = true;
  try {
    while (queue.writes.length > 0) {
      try {
        await waitingForLock(db.sqlite, async () => {
          // A kysely transaction can open again while this waits: check until none is open.
          for (let open = outsideTransaction(db); open; open = outsideTransaction(db)) await open;
          commitGroup(db.sqlite, control, queue.writes);
        });
      } catch (error) {
        // No lock within the server's write wait, or BEGIN failed: nothing queued can run now.
        for (const write of queue.writes.splice(0)) write.reject(error);
      }
    }
  } finally {
    queue.draining = false;
  }
}

/**
 * Runs `work` in a synchronous IMMEDIATE transaction on the server's connection (prepared
 * statements, no promise per statement, nothing can interleave). It first waits for any open kysely
 * transaction to end; when an import holds the write lock, BEGIN fails having done nothing and
 * is tried again on a timer (waitingForLock), so `work` must not change anything but the database.
 * Writes that queue meanwhile commit together, one transaction for all (group commit: a webhook
 * burst during an import takes the lock once per import batch, not once per write); one that
 * throws rolls its group back and each then runs alone. `committed` runs right after the commit,
 * before anything else can touch the connection.
 */
export function writeNow<T>(db: Db, work: () => T, committed?: (result: T) => void): Promise<T> {
  const queue = queueOf(db);
  return new Promise<T>((resolve, reject) => {
    queue.writes.push({
      work,
      committed: committed as ((result: unknown) => void) | undefined,
      resolve: resolve as (result: unknown) => void,
      reject,
      alone: false,
    });
    if (!queue.draining) void drain(db);
  });
}
