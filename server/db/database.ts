import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, sql, type Driver, type SqliteDatabase } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import { StartupError } from '../startup-error.ts';
import { waitForLockAsynchronously } from './busy-wait.ts';
import { migrations } from './migrations/index.ts';
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

const provider: MigrationProvider = { getMigrations: async () => migrations };
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

/**
 * Transactions begin IMMEDIATE: a deferred one that reads and then writes fails at once with
 * SQLITE_BUSY (busy_timeout does not apply) when an import worker's connection committed in between.
 */
class ImmediateTransactionDialect extends SqliteDialect {
  private readonly sqlite: SQLite.Database;
  private readonly asyncLockWait: boolean;

  constructor(sqlite: SQLite.Database, asyncLockWait: boolean) {
    super({ database: withStatementCache(sqlite) });
    this.sqlite = sqlite;
    this.asyncLockWait = asyncLockWait;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return this.asyncLockWait ? waitForLockAsynchronously(driver, this.sqlite) : driver;
  }
}

/** `asyncLockWait`: the server's connection, whose thread must not sleep in SQLite's busy handler. */
function createKysely(sqlite: SQLite.Database, asyncLockWait = false): Kysely<Database> {
  return new Kysely<Database>({ dialect: new ImmediateTransactionDialect(sqlite, asyncLockWait) });
}

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

/** Opens (creating if needed) the data dir's database, in WAL mode, with every migration applied. */
export async function openDatabase(dataDir: string): Promise<Db> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = databasePath(dataDir);
  const sqlite = openSqlite(file);
  const kysely = createKysely(sqlite, true);
  let closed = false;
  const db: Db = {
    kysely,
    sqlite,
    file,
    async close() {
      if (closed) return;
      closed = true;
      await kysely.destroy();
    },
  };
  // Not on every commit of this (the server's) connection: during a big import the WAL is large, and a
  // checkpoint in a request would stall the event loop. Import workers and the server's timer checkpoint instead.
  db.sqlite.pragma('wal_autocheckpoint = 0');
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/**
 * A second connection for a worker thread or CLI command; it expects migrations to be done.
 * `readonly`: SQLite refuses every write to the database file (temporary tables stay writable).
 */
export function openConnection(dataDir: string, options: { readonly?: boolean } = {}): Db {
  const file = databasePath(dataDir);
  const sqlite = openSqlite(file, options.readonly ?? false);
  const kysely = createKysely(sqlite);
  return { kysely, sqlite, file, close: () => kysely.destroy() };
}

function openSqlite(file: string, readonly = false): SQLite.Database {
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

async function migrate(db: Db): Promise<void> {
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((name) => !(name in migrations));
  if (unknown.length > 0) {
    throw new StartupError(
      `${db.file} was written by a newer version of QR Sandbox (it has migration ${unknown.join(', ')}, ` +
        'which this version does not know). Upgrade QR Sandbox or use another --data-dir.',
    );
  }
  // Capabilities land in any order and own separate tables, so a later-numbered one may already be applied.
  const migrator = new Migrator({ db: db.kysely, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new StartupError(`Could not upgrade ${db.file}: migration ${failed} failed (${describe(error)}).`);
  }
}

async function appliedMigrations(db: Db): Promise<string[]> {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db.kysely);
  if (tables.rows.length === 0) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely);
  return rows.rows.map((r) => r.name);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
