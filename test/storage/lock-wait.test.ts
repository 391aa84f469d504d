/**
 * The server's connection never sleeps in SQLite's busy handler: a write that finds an import
 * holding the lock waits on a timer, and tries again at once when an import commits a batch
 * (lockReleased), in the moment the lock is free before the import's next batch.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath, lockReleased, openDatabase, waitingForLock } from '../../server/db/database.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('a write waiting for the lock', () => {
  it('tries again as soon as an import commits, not at its timer', async () => {
    const dir = freshDir();
    const db = await openDatabase(dir);
    const importer = new SQLite(databasePath(dir));
    try {
      importer.exec('BEGIN IMMEDIATE');
      let attempts = 0;
      const write = waitingForLock(db.sqlite, async () => {
        attempts++;
        db.sqlite
          .prepare("insert into organizations (uuid, name, default_timezone, created_on) values ('o-wait', 'Written', 'UTC', 'x')")
          .run();
      });
      await nextTurn();
      assert.equal(attempts, 1, 'the first try found the lock taken and waits');

      importer.exec('COMMIT');
      lockReleased();
      await nextTurn();
      // A retry on the timer could not have run yet (it waits 5 ms or more, and timers run after this turn).
      assert.equal(attempts, 2, 'tried again at the commit');
      await write;
      assert.equal(db.sqlite.prepare("select name from organizations where uuid = 'o-wait'").pluck().get(), 'Written');
    } finally {
      importer.close();
      await db.close();
    }
  });

  it('still tries again on its timer when no commit is announced', async () => {
    const dir = freshDir();
    const db = await openDatabase(dir);
    const importer = new SQLite(databasePath(dir));
    try {
      importer.exec('BEGIN IMMEDIATE');
      let attempts = 0;
      const write = waitingForLock(db.sqlite, async () => {
        attempts++;
        db.sqlite
          .prepare("insert into organizations (uuid, name, default_timezone, created_on) values ('o-timer', 'Written', 'UTC', 'x')")
          .run();
      });
      await nextTurn();
      importer.exec('COMMIT');
      await write;
      assert.equal(attempts, 2);
    } finally {
      importer.close();
      await db.close();
    }
  });
});
