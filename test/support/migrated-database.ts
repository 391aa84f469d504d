import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { databasePath } from '../../server/db/database.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import type { Database } from '../../server/db/schema.ts';
import { ensureDemoOrganization } from '../../server/orgs/bootstrap.ts';
import { tempDataDir } from './server.ts';

/** Applies the migrations up to and including `upTo` (a migration test's database as an older server left it). */
export async function migrateUpTo(db: Kysely<Database>, upTo: string): Promise<void> {
  const chosen = Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= upTo));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => chosen } }).migrateToLatest();
  assert.equal(error, undefined);
}

/**
 * A database in a temp data folder (removed after the file's tests) migrated up to `upTo`, with its
 * first organization: to fill as an older server would, then migrate on with migrateUpTo.
 */
export async function databaseAt(upTo: string) {
  const dataDir = tempDataDir();
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const sqlite = new SQLite(databasePath(dataDir));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrateUpTo(db, upTo);
  const credentials = await ensureDemoOrganization({ kysely: db, sqlite }, dataDir);
  assert.ok(credentials);
  return { sqlite, db, organizationUuid: credentials.organization_uuid };
}
