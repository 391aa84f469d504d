/**
 * The server's connection never sleeps in SQLite's busy handler: a write that finds an import
 * holding the lock waits on a timer, and tries again at once when an import commits a batch
 * (lockReleased), in the moment the lock is free before the import's next batch.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath, lockReleased, waitingForLock } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The server's connection, an import's connection holding the write lock, and a write
 * (organization `uuid`) that found it taken. setTimeout is mocked until close(): the write's retry
 * timer fires only when the test ticks it, however slow the machine.
 */
async function writeWaitingForImport(uuid: string) {
  const dir = freshDir();
  const db = await openDatabase(dir);
  const importer = new SQLite(databasePath(dir));
  importer.exec('BEGIN IMMEDIATE');
  mock.timers.enable({ apis: ['setTimeout'] });
  const tries = { count: 0 };
  const write = waitingForLock(db.sqlite, async () => {
    tries.count++;
    db.sqlite.prepare("insert into organizations (uuid, name, default_timezone, created_on) values (?, 'Written', 'UTC', 'x')").run(uuid);
  });
  await nextTurn();
  assert.equal(tries.count, 1, 'the first try found the lock taken and waits');
  const written = () => db.sqlite.prepare('select name from organizations where uuid = ?').pluck().get(uuid);
  const close = async () => {
    mock.timers.reset();
    importer.close();
    await db.close();
  };
  return { importer, tries, write, written, close };
}

describe('a write waiting for the lock', () => {
  it('tries again as soon as an import commits, not at its timer', async () => {
    const { importer, tries, write, written, close } = await writeWaitingForImport('o-wait');
    try {
      importer.exec('COMMIT');
      lockReleased();
      await nextTurn();
      assert.equal(tries.count, 2, 'tried again at the commit, its timer not run');
      await write;
      assert.equal(written(), 'Written');
    } finally {
      await close();
    }
  });

  it('still tries again on its timer when no commit is announced', async () => {
    const { importer, tries, write, written, close } = await writeWaitingForImport('o-timer');
    try {
      importer.exec('COMMIT');
      await nextTurn();
      assert.equal(tries.count, 1, 'still waiting for its timer');
      mock.timers.tick(25);
      await write;
      assert.equal(tries.count, 2);
      assert.equal(written(), 'Written');
    } finally {
      await close();
    }
  });
});
