import type SQLite from 'better-sqlite3';
import { sql, type DatabaseConnection, type Driver } from 'kysely';
import type { Db } from './database.ts';

/** As long as SQLite's busy_timeout was (5 s): then the SQLITE_BUSY error goes to the caller as before. */
export const BUSY_WAIT_MS = 5_000;
const RETRY_MS = [1, 2, 3, 5];

/**
 * The server's connection waits for SQLite's write lock without blocking its thread. SQLite's own
 * busy handler (busy_timeout) sleeps inside the call, so while an import worker held the lock the
 * event loop stood still for up to seconds and every request waited. With busy_timeout 0 a statement
 * that needs the lock fails at once with SQLITE_BUSY, having done nothing, and is tried again a
 * few ms later (timers), while other requests run. Only outside a transaction: inside one
 * (BEGIN IMMEDIATE holds the lock) a statement never waits.
 */
export function waitForLockAsynchronously(driver: Driver, sqlite: SQLite.Database): Driver {
  sqlite.pragma('busy_timeout = 0');
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => retrying(await acquire(), sqlite);
  return driver;
}

function retrying(connection: DatabaseConnection, sqlite: SQLite.Database): DatabaseConnection {
  return {
    streamQuery: connection.streamQuery.bind(connection),
    async executeQuery(query) {
      const deadline = Date.now() + BUSY_WAIT_MS;
      for (let attempt = 0; ; attempt++) {
        try {
          return await connection.executeQuery(query);
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_BUSY' || sqlite.inTransaction || Date.now() >= deadline) throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    },
  } as DatabaseConnection;
}

/**
 * For synchronous reads on the server's connection: resolves once no transaction is open on it.
 * A kysely transaction holds the connection across awaits; a read that ran in between would see
 * its uncommitted rows. Waiting for a trivial kysely query queues behind it, as every kysely query does.
 */
export async function outsideTransaction(db: Db): Promise<void> {
  while (db.sqlite.inTransaction) await sql`select 1`.execute(db.kysely);
}
