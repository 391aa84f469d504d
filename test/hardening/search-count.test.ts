import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { cachedCount, type Counter } from '../../server/db/count-cache.ts';
import { CountThread } from '../../server/db/count-thread-client.ts';
import { databasePath, type Db } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { INDEX_QR_CODE_SQL } from '../../server/qrcodes/search-index.ts';
import { startImportTestServer } from '../support/imports.ts';
import { jsonBody, tempDataDir, type TestServer } from '../support/server.ts';

const LAKESIDE = 300;

describe('search totals counted in a thread of their own', () => {
  let server: TestServer;
  const total = async (term: string, perPage = 5) => {
    const res = await server.request(
      `/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=${perPage}&search=${encodeURIComponent(term)}`,
    );
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { total: number }).total;
  };

  before(async () => {
    server = await startImportTestServer();
    const writer = new SQLite(databasePath(server.dataDir));
    try {
      const insert = writer.prepare(
        `insert into qrcodes (uuid, organization_uuid, name, location, created_on, updated_on) values (?, ?, ?, 'Somewhere', '2026-01-01', '2026-01-01')`,
      );
      const index = writer.prepare(INDEX_QR_CODE_SQL);
      writer.transaction(() => {
        for (let i = 0; i < LAKESIDE; i++) {
          insert.run(`lakeside-${i}`, server.organizationUuid, `Lakeside ${i}`);
          index.run(`lakeside-${i}`);
        }
      })();
    } finally {
      writer.close();
    }
  });
  after(() => server.stop());

  it('counts there when the first page is full, and a write of the same client is in the next total', async () => {
    assert.equal(await total('Lakeside 299'), 1);
    assert.equal(await total('Lakeside 12', 20), 11);
    assert.equal(server.ctx.counts.threadId, undefined, 'a first page that is not full is the total: nothing counted');
    assert.equal(await total('Lakeside'), LAKESIDE);
    assert.notEqual(server.ctx.counts.threadId, undefined, 'the thread counted');
    const created = await server.request(
      '/api/qrcodes',
      jsonBody({ organization_uuid: server.organizationUuid, name: 'Lakeside new', location: '1 High Street, Melbourne VIC 3000' }),
    );
    assert.equal(created.status, 201, await created.clone().text());
    assert.equal(await total('Lakeside'), LAKESIDE + 1);
    const { uuid } = (await created.json()) as { uuid: string };
    assert.equal((await server.request(`/api/qrcodes/uuid/${uuid}`, { method: 'DELETE' })).status, 204);
    assert.equal(await total('Lakeside'), LAKESIDE);
  });

  it('starts the thread again at the next count after it died', async () => {
    assert.equal(await total('akesid'), LAKESIDE);
    const first = server.ctx.counts.threadId;
    assert.notEqual(first, undefined);
    await server.ctx.counts.kill();
    assert.equal(server.ctx.counts.threadId, undefined);
    assert.equal(await total('keside'), LAKESIDE);
    const second = server.ctx.counts.threadId;
    assert.notEqual(second, undefined);
    assert.notEqual(second, first);
  });

  it('answers the right total when the thread is killed while counting', async () => {
    const counting = total('Lakesi');
    await server.ctx.counts.kill();
    assert.equal(await counting, LAKESIDE);
  });
});

describe('the count cache', () => {
  const dataDir = tempDataDir('qr-count-cache-');
  let db: Db;
  let thread: CountThread;
  let organizationUuid: string;
  const counted: string[] = [];
  const countsOfOrganization = (organizationUuid: string) =>
    db.kysely.selectFrom('qrcodes').where('organization_uuid', '=', organizationUuid).where('deleted_on', 'is', null);

  before(async () => {
    db = await openDatabase(dataDir);
    organizationUuid = (await createOrganization(db.kysely, { name: 'Counted' })).organization_uuid;
    thread = new CountThread(db.file);
  });
  after(async () => {
    await thread.stop();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const inThread: Counter = (sql, parameters) => {
    counted.push(String(parameters[0]));
    return thread.count(sql, parameters);
  };

  it('keeps the counts used most recently when full', async () => {
    await cachedCount(db.kysely, countsOfOrganization('kept'), inThread);
    for (let i = 0; i < 1200; i++) {
      if (i % 100 === 0) await cachedCount(db.kysely, countsOfOrganization('kept'), inThread);
      await cachedCount(db.kysely, countsOfOrganization(`other-${i}`), inThread);
    }
    assert.equal(counted.filter((org) => org === 'kept').length, 1, 'counted once, then answered from the cache');
    counted.length = 0;
    await cachedCount(db.kysely, countsOfOrganization('other-0'), inThread);
    assert.deepEqual(counted, ['other-0'], 'the least recently used were forgotten');
  });

  it('counts on its own connection when the thread cannot, and a dead thread answers an error', async () => {
    const broken = new CountThread(path.join(dataDir, 'missing', 'no.db'));
    try {
      await assert.rejects(broken.count('select 1', []), /the count thread ended/);
      await db.kysely
        .insertInto('qrcodes')
        .values({
          uuid: 'q1',
          organization_uuid: organizationUuid,
          type: 'SITE',
          name: 'n',
          location: 'l',
          created_on: 'now',
          updated_on: 'now',
        })
        .execute();
      const n = await cachedCount(db.kysely, countsOfOrganization(organizationUuid), (sql, parameters) => broken.count(sql, parameters));
      assert.equal(n, 1);
    } finally {
      await broken.stop();
    }
  });

  it('answers an error the thread met, not a hang', async () => {
    await assert.rejects(thread.count('select count(*) from no_such_table', []), /no such table/);
    assert.equal(await thread.count('select count(*) from qrcodes where organization_uuid = ?', [organizationUuid]), 1);
  });
});
