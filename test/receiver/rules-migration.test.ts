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

describe('migration 017: an inbox fault setting becomes its rule for every request', () => {
  it('moves status, delay and drop into one rule and leaves an inbox with normal answers without rules', async () => {
    const before017 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '017_endpoint_faults'));
    const sqlite = new SQLite(databasePath(dataDir));
    sqlite.pragma('foreign_keys = off');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      const first = await new Migrator({ db, provider: { getMigrations: async () => before017 } }).migrateToLatest();
      assert.equal(first.error, undefined);
      const old = [
        ['normal', null, 0, 0],
        ['fails', 503, 250, 0],
        ['drops', null, 0, 1],
      ] as const;
      for (const [uuid, status, delay, drop] of old) {
        await sql`insert into inboxes (uuid, organization_uuid, name, secrets, response_status, response_delay_ms, response_drop, created_on, updated_on)
          values (${uuid}, 'org', ${uuid}, '[]', ${status}, ${delay}, ${drop}, 'now', 'now')`.execute(db);
      }
      const upTo017 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= '017_endpoint_faults'));
      const second = await new Migrator({ db, provider: { getMigrations: async () => upTo017 } }).migrateToLatest();
      assert.equal(second.error, undefined);
      const rows = await sql<{ uuid: string; response_rules: string }>`select uuid, response_rules from inboxes order by uuid`.execute(db);
      assert.deepEqual(Object.fromEntries(rows.rows.map((r) => [r.uuid, JSON.parse(r.response_rules)])), {
        drops: [{ match: {}, respond: { drop: true } }],
        fails: [{ match: {}, respond: { status: 503, delay_ms: 250 } }],
        normal: [],
      });
    } finally {
      await db.destroy();
    }
  });
});
