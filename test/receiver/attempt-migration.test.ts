import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { databasePath } from '../../server/db/database.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { tempDataDir } from '../support/server.ts';

const dataDir = tempDataDir();
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const MIGRATION = '027_sandbox_diagnostics';

describe('migration 027: a message stored before keeps the attempt number its delivery carried', () => {
  it('reads X-Service-Attempt of the stored headers into attempt; nothing for a message without a delivery id or a number', async () => {
    const sqlite = new SQLite(databasePath(dataDir));
    sqlite.pragma('foreign_keys = off');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const upTo = (last: string, inclusive: boolean) =>
      Object.fromEntries(Object.entries(migrations).filter(([name]) => (inclusive ? name <= last : name < last)));
    try {
      const first = await new Migrator({ db, provider: { getMigrations: async () => upTo(MIGRATION, false) } }).migrateToLatest();
      assert.equal(first.error, undefined);
      await sql`insert into organizations (uuid, name, default_timezone, created_on) values ('org', 'Org', 'UTC', 'now')`.execute(db);
      await sql`insert into inboxes (uuid, organization_uuid, name, secrets, created_on, updated_on)
        values ('inbox', 'org', 'inbox', '[]', 'now', 'now')`.execute(db);
      const messages = [
        ['retry', 'dlv_1', [['X-Service-Attempt', '3']]],
        ['lowercase', 'dlv_2', [['x-service-attempt', '1']]],
        ['not a number', 'dlv_3', [['X-Service-Attempt', 'two']]],
        ['hand-made', null, [['X-Service-Attempt', '2']]],
      ] as const;
      for (const [uuid, deliveryId, headers] of messages) {
        await sql`insert into inbox_messages (uuid, inbox_uuid, organization_uuid, received_on, method, path, raw_headers, body, delivery_id)
          values (${uuid}, 'inbox', 'org', 'now', 'POST', '/', ${JSON.stringify(headers)}, ${Buffer.from('{}')}, ${deliveryId})`.execute(
          db,
        );
      }
      const second = await new Migrator({ db, provider: { getMigrations: async () => upTo(MIGRATION, true) } }).migrateToLatest();
      assert.equal(second.error, undefined);
      const rows = await sql<{ uuid: string; attempt: number | null }>`select uuid, attempt from inbox_messages order by uuid`.execute(db);
      assert.deepEqual(Object.fromEntries(rows.rows.map((r) => [r.uuid, r.attempt])), {
        'hand-made': null,
        lowercase: 1,
        'not a number': null,
        retry: 3,
      });
    } finally {
      await db.destroy();
    }
  });
});
