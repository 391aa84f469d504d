import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { DATABASE_FILE, databasePath, withBusyTimeout } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { CREDENTIALS_FILE } from '../../server/orgs/bootstrap.ts';
import { StartupError } from '../../server/startup-error.ts';
import { startTestServer } from '../support/server.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

describe('storage', () => {
  it('creates and migrates an empty database, in WAL mode', async () => {
    const dir = freshDir();
    const db = await openDatabase(dir);
    const tables = db.sqlite.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>;
    for (const table of ['organizations', 'api_keys', 'background_tasks', 'kysely_migration']) {
      assert.ok(
        tables.some((t) => t.name === table),
        `table ${table}`,
      );
    }
    const applied = db.sqlite.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>;
    assert.deepEqual(
      applied.map((r) => r.name),
      Object.keys(migrations).sort(),
    );
    assert.equal(db.sqlite.pragma('journal_mode', { simple: true }), 'wal');
    await db.close();
  });

  it('opens an existing database again, keeping its data and applying nothing twice', async () => {
    const dir = freshDir();
    const first = await openDatabase(dir);
    await first.kysely.insertInto('organizations').values({ uuid: 'o1', name: 'Kept', default_timezone: 'UTC', created_on: 'x' }).execute();
    await first.close();
    const second = await openDatabase(dir);
    const orgs = await second.kysely.selectFrom('organizations').select('name').execute();
    assert.deepEqual(orgs, [{ name: 'Kept' }]);
    const count = second.sqlite.prepare('select count(*) as n from kysely_migration').get() as { n: number };
    assert.equal(count.n, Object.keys(migrations).length);
    await second.close();
  });

  it('brings an older database up to date, keeping its data', async () => {
    const dir = freshDir();
    const oldest = Object.keys(migrations).sort()[0] ?? '';
    const older = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, DATABASE_FILE)) }) });
    const provider = { getMigrations: async () => ({ [oldest]: migrations[oldest] as Migration }) };
    const { error } = await new Migrator({ db: older, provider }).migrateToLatest();
    assert.equal(error, undefined);
    await sql`insert into organizations (uuid, name, default_timezone, created_on) values ('o1', 'From an old version', 'UTC', 'x')`.execute(
      older,
    );
    await older.destroy();

    const db = await openDatabase(dir);
    const applied = (db.sqlite.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
    assert.deepEqual(applied, Object.keys(migrations).sort());
    assert.deepEqual(await db.kysely.selectFrom('organizations').select('name').execute(), [{ name: 'From an old version' }]);
    await db.close();
  });

  it('refuses a database written by a newer version with a clear message', async () => {
    const dir = freshDir();
    const db = await openDatabase(dir);
    db.sqlite.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('999_from_the_future', new Date().toISOString());
    await db.close();
    await assert.rejects(openDatabase(dir), (error: unknown) => {
      assert.ok(error instanceof StartupError);
      assert.match(error.message, /newer version of QR Sandbox/);
      assert.match(error.message, /999_from_the_future/);
      return true;
    });
  });

  it('refuses a file that is not a database with a clear message', async () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, DATABASE_FILE), 'these are not the bytes of a database '.repeat(200));
    await assert.rejects(openDatabase(dir), (error: unknown) => {
      assert.ok(error instanceof StartupError);
      assert.match(error.message, /is not a QR Sandbox database/);
      return true;
    });
  });
});

describe('withBusyTimeout', () => {
  it('runs with the given busy timeout and puts the connection’s own back, also when the work throws', async () => {
    const dir = freshDir();
    await (await openDatabase(dir)).close();
    const sqlite = new SQLite(databasePath(dir));
    try {
      sqlite.pragma('busy_timeout = 30000');
      const timeout = () => sqlite.pragma('busy_timeout', { simple: true });
      assert.equal(
        withBusyTimeout(sqlite, 0, () => timeout()),
        0,
      );
      assert.equal(timeout(), 30000);
      assert.throws(
        () =>
          withBusyTimeout(sqlite, 1000, () => {
            throw new Error('work failed');
          }),
        /work failed/,
      );
      assert.equal(timeout(), 30000);
    } finally {
      sqlite.close();
    }
  });
});

describe('first start', () => {
  it('creates the demo organization and credentials.json readable by the owner only', async () => {
    const dir = freshDir();
    const server = await startTestServer({ dataDir: dir });
    try {
      const file = path.join(dir, CREDENTIALS_FILE);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      const credentials = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
      assert.deepEqual(Object.keys(credentials).sort(), ['api_key', 'api_secret', 'organization_uuid']);
      const res = await fetch(`${server.url}/api/background-tasks?organization_uuid=${credentials.organization_uuid}`, {
        headers: { authorization: `Bearer ${credentials.api_key}:${credentials.api_secret}` },
      });
      assert.equal(res.status, 200, 'the written credential works');
    } finally {
      await server.close();
    }
    const again = await startTestServer({ dataDir: dir });
    try {
      const orgs = await again.ctx.db.kysely.selectFrom('organizations').select('uuid').execute();
      assert.equal(orgs.length, 1, 'a second start creates no second demo organization');
      assert.equal(again.organizationUuid, orgs[0]?.uuid);
    } finally {
      await again.close();
    }
  });
});
