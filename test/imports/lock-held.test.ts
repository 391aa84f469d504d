/**
 * An import whose next batch finds the write lock held by another connection (the server's own
 * writes take it between two batches) reads and parses on, and writes when the lock is free
 * again: every row once, in file order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath } from '../../server/db/database.ts';
import { addressCsv, startCsvImport, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';

const ROWS = 100_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an import while another connection holds the write lock', () => {
  const server = suiteServer(startImportTestServer);

  it('commits nothing while the lock is held, then writes every row once, in file order', async () => {
    const uuid = await startCsvImport(server, addressCsv(ROWS, 'LOCK'), 'locked.csv');
    const task = async () =>
      (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as { status: string; progress: number };
    while ((await task()).status === 'PENDING') await sleep(5);

    const other = new SQLite(databasePath(server.dataDir));
    try {
      // Tried at every turn of the event loop rather than in SQLite's busy handler, whose growing
      // sleeps can miss every gap between the import's batches until it has ended.
      other.pragma('busy_timeout = 0');
      for (;;) {
        try {
          other.exec('BEGIN IMMEDIATE');
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      const held = await task();
      assert.equal(held.status, 'PROCESSING', 'the lock was taken while the import ran');
      await sleep(300);
      assert.equal((await task()).progress, held.progress, 'no batch committed while the lock was held');
      other.exec('COMMIT');
    } finally {
      other.close();
    }

    const done = await waitForTask(server, uuid);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal((done.results as { inserted: number }).inserted, ROWS);
    const stored = server.ctx.db.sqlite
      .prepare('select external_reference_id as ref, name, location from qrcodes where organization_uuid = ? order by rowid')
      .all(server.organizationUuid) as { ref: string; name: string; location: string }[];
    assert.equal(stored.length, ROWS);
    const outOfOrder = stored.findIndex((row, i) => row.ref !== `LOCK-${i}`);
    assert.equal(outOfOrder, -1, `row ${outOfOrder} is ${stored[outOfOrder]?.ref}`);
    const [suburb, state, postcode] = TINY_SUBURBS[4321 % TINY_SUBURBS.length]!;
    assert.deepEqual(stored[4321], { ref: 'LOCK-4321', name: 'Site 4321', location: `4322 High Street, ${suburb} ${state} ${postcode}` });
  });
});
