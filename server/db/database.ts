import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
} from 'kysely';
import { StartupError } from '../startup-error.ts';
import type { Database } from './schema.ts';

export const DATABASE_FILE = 'qr-sandbox.db';

export interface Db {
  /** Every query goes through kysely. */
  kysely: Kysely<Database>;
  /** The raw handle, for pragmas and synchronous transactions only. */
  sqlite: SQLite.Database;
  file: string;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing is a measurable share of CPU on hot paths
 * (deliveries, imports), so the dialect gets a connection that reuses prepared statements.
 * Safe because nothing streams (`.stream()` would iterate a statement that could be reused mid-way).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

/** How long the server's own connection waits, in all, for the write lock before a write fails with SQLITE_BUSY. */
export const SERVER_WRITE_WAIT_MS = 60_000;
/**
 * The server's connection never sleeps in SQLite's busy handler (busy_timeout blocks the event
 * loop, and import workers hold the lock for whole batches): a statement that finds the lock
 * taken fails at once, having done nothing, and waitingForLock tries it again on a timer.
 */
export const SERVER_BUSY_TIMEOUT_MS = 0;

export const isBusy = (error: unknown) => (error as { code?: string } | null)?.code?.startsWith('SQLITE_BUSY') === true;

/** Runs `run` with the connection's busy timeout set to `ms`, then puts the one it had back. */
export function withBusyTimeout<T>(sqlite: SQLite.Database, ms: number, run: () => T): T {
  const previous = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma(`busy_timeout = ${ms}`);
  try {
    return run();
  } finally {
    sqlite.pragma(`busy_timeout = ${previous}`);
  }
}

/** Wakes the writes that wait for the lock (waitingForLock). */
const waiting = new Set<() => void>();

/**
 * An import worker committed a batch: the lock is free until it begins the next one, while it
 * reads on. Writes waiting for the lock try again now rather than at their timer, which would
 * mostly find the next batch holding it.
 */
export function lockReleased(): void {
  for (const wake of waiting) wake();
}

/** Resolves after `ms`, or sooner at lockReleased(). */
function lockWait(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      waiting.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    waiting.add(wake);
  });
}

/**
 * Runs a statement; when it could not take the lock (SQLITE_BUSY outside a transaction, so nothing
 * ran), waits a little without blocking (or until an import commits) and tries again, until SERVER_WRITE_WAIT_MS.
 */
export async function waitingForLock<T>(sqlite: SQLite.Database, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SERVER_WRITE_WAIT_MS;
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (!isBusy(error) || sqlite.inTransaction || Date.now() > deadline) throw error;
      await lockWait(5 + Math.random() * 20);
    }
  }
}

/**
 * SQLite rolls back a CREATE or ALTER like any write, though kysely's adapter says it cannot: saying
 * so makes the migrator run the pending migrations in one transaction, so a start killed midway
 * leaves the schema as it was and the next start runs them again.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Transactions begin IMMEDIATE: a deferred one that reads and then writes fails at once with
 * SQLITE_BUSY (busy_timeout does not apply) when an import worker's connection committed in between.
 * A statement or BEGIN that finds the lock taken waits for it (waitingForLock).
 */
class ImmediateTransactionDialect extends SqliteDialect {
  private readonly sqlite: SQLite.Database;

  constructor(sqlite: SQLite.Database) {
    super({ database: withStatementCache(sqlite) });
    this.sqlite = sqlite;
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const sqlite = this.sqlite;
    const acquire = driver.acquireConnection.bind(driver);
    let waiting: DatabaseConnection | undefined;
    driver.acquireConnection = async () => {
      const connection = await acquire();
      waiting ??= {
        executeQuery: (query) => waitingForLock(sqlite, () => connection.executeQuery(query)),
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      return waiting;
    };
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    // SQLite rolls back by itself after some errors (SQLITE_FULL on a full disk): a ROLLBACK then would
    // fail with "no transaction is active" and hide the error that explains what happened.
    driver.rollbackTransaction = async (connection) => {
      if (sqlite.inTransaction) await connection.executeQuery(CompiledQuery.raw('rollback'));
    };
    return driver;
  }
}

export function createKysely(sqlite: SQLite.Database): Kysely<Database> {
  return new Kysely<Database>({ dialect: new ImmediateTransactionDialect(sqlite) });
}

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

/**
 * A second connection for an import worker process or a CLI command; it expects migrations to be done.
 * `readonly`: SQLite refuses every write to the database file (temporary tables stay writable).
 */
export function openConnection(dataDir: string, options: { readonly?: boolean } = {}): Db {
  const file = databasePath(dataDir);
  const sqlite = openSqlite(file, options.readonly ?? false);
  const kysely = createKysely(sqlite);
  return { kysely, sqlite, file, close: () => kysely.destroy() };
}

export function openSqlite(file: string, readonly = false): SQLite.Database {
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file, { readonly, fileMustExist: readonly });
    sqlite.pragma('journal_mode = WAL');
  } catch (error) {
    throw new StartupError(
      `${file} is not a QR Sandbox database (${describe(error)}). ` +
        'Point --data-dir at an empty folder or at a folder QR Sandbox created.',
    );
  }
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return sqlite;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
