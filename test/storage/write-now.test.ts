/**
 * writeNow(): the server's synchronous transactions. Writes that queue while an import holds the
 * lock commit together once it is free (one transaction, in order); one that throws is rejected
 * alone and the others still commit; one queued during a kysely transaction waits for it and commits
 * on its own (the one transaction helper of synchronous writes: import drafts use it too).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { databasePath, type Db, lockReleased } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { writeNow } from '../../server/db/write-now.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

/** The server's connection with a scratch table, and an import's connection holding the write lock. */
async function lockedByImport() {
  const dir = freshDir();
  const db = await openDatabase(dir);
  db.sqlite.exec('create table scratch (n integer, name text)');
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const importer = new SQLite(databasePath(dir));
  importer.exec('BEGIN IMMEDIATE');
  const release = () => {
    importer.exec('COMMIT');
    lockReleased();
  };
  const close = async () => {
    importer.close();
    await db.close();
  };
  return { db, release, close };
}

const insert = (db: Db, n: number, name: string) => db.sqlite.prepare('insert into scratch (n, name) values (?, ?)').run(n, name);
const names = (db: Db) => db.sqlite.prepare('select name from scratch order by rowid').pluck().all();
/** Frames in the WAL since the test emptied it: a commit appends the pages it changed. */
const walFrames = (db: Db) => (db.sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]?.log;

describe('writeNow: writes queued behind an import commit together', () => {
  it('runs five queued writes in one transaction, in order, each committed callback right after the commit', async () => {
    const { db, release, close } = await lockedByImport();
    try {
      const seen: string[] = [];
      const writes = ['a', 'b', 'c', 'd', 'e'].map((name, i) =>
        writeNow(
          db,
          () => {
            insert(db, i, name);
            return name;
          },
          (result) => seen.push(`${result}:${names(db).length}`),
        ),
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(names(db), [], 'nothing written while the import holds the lock');
      release();
      assert.deepEqual(await Promise.all(writes), ['a', 'b', 'c', 'd', 'e']);
      assert.deepEqual(names(db), ['a', 'b', 'c', 'd', 'e']);
      assert.deepEqual(seen, ['a:5', 'b:5', 'c:5', 'd:5', 'e:5'], 'every callback ran after the one commit');
      assert.equal(walFrames(db), 1, 'one commit of the one page they changed, not five');
    } finally {
      await close();
    }
  });

  it('rejects a write that throws and still commits the others of its group, without its changes', async () => {
    const { db, release, close } = await lockedByImport();
    try {
      const ok = (n: number, name: string) => writeNow(db, () => insert(db, n, name).changes);
      const first = ok(1, 'first');
      const failing = writeNow(db, () => {
        insert(db, 2, 'half-done');
        throw new Error('the work failed');
      });
      const promised = writeNow(db, () => Promise.resolve(1));
      const last = ok(3, 'last');
      release();
      const [a, b, c, d] = await Promise.allSettled([first, failing, promised, last]);
      assert.deepEqual(a, { status: 'fulfilled', value: 1 });
      assert.match(String(b.status === 'rejected' && b.reason), /the work failed/);
      assert.match(String(c.status === 'rejected' && c.reason), /cannot return a promise/);
      assert.deepEqual(d, { status: 'fulfilled', value: 1 });
      assert.deepEqual(names(db), ['first', 'last']);
      assert.equal(db.sqlite.inTransaction, false);
      assert.equal(await writeNow(db, () => insert(db, 4, 'after').changes), 1, 'the connection writes on');
    } finally {
      await close();
    }
  });

  it('never joins an open kysely transaction: it waits for its end, and its rollback does not undo the write', async () => {
    const db = await openDatabase(freshDir());
    try {
      db.sqlite.exec('create table scratch (n integer, name text)');
      let queued: Promise<number> | undefined;
      const rolledBack = db.kysely.transaction().execute(async (trx) => {
        await sql`insert into scratch (n, name) values (1, 'in the kysely transaction')`.execute(trx);
        queued = writeNow(db, () => insert(db, 2, 'its own write').changes);
        await sql`select 1`.execute(trx);
        throw new Error('roll back');
      });
      await assert.rejects(rolledBack, /roll back/);
      assert.equal(await queued, 1);
      assert.deepEqual(names(db), ['its own write']);
    } finally {
      await db.close();
    }
  });
});
