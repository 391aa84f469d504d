import fs from 'node:fs';
import { sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import { ensurePrivateFile, tightenFile } from '../data-dir/private-files.ts';
import { StartupError } from '../startup-error.ts';
import { createKysely, databasePath, type Db, describe, openSqlite, SERVER_BUSY_TIMEOUT_MS } from './database.ts';
import { migrations } from './migrations/index.ts';

/*
 * Apart from database.ts so that import workers and upload readers, which open a connection to a
 * database the server already migrated, do not load the migrations and kysely's migrator (about
 * 70 ms of each process's start).
 */

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Opens (creating if needed) the data dir's database, in WAL mode, with every migration applied. */
export async function openDatabase(dataDir: string): Promise<Db> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = databasePath(dataDir);
  // SQLite gives the -wal and -shm files the mode of the database file, so that one is made 0600 first.
  ensurePrivateFile(file);
  const sqlite = openSqlite(file);
  for (const extra of ['-wal', '-shm']) tightenFile(`${file}${extra}`);
  const kysely = createKysely(sqlite);
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
  db.sqlite.pragma(`busy_timeout = ${SERVER_BUSY_TIMEOUT_MS}`);
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
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(
    db.kysely,
  );
  if (tables.rows.length === 0) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely);
  return rows.rows.map((r) => r.name);
}
