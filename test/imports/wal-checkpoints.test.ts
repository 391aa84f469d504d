/**
 * An import worker's WAL checkpoints (WalCheckpoints): a thread of their own copies the WAL into
 * the database while the import's connection only commits; past its limit the WAL starts over;
 * if the thread fails, SQLite's autocheckpoint takes over again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { type Db, openConnection } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { PASS_EVERY_COMMITS } from '../../server/db/wal/checkpoint-shared.ts';
import { WAL_FRAMES_LIMIT, WalCheckpoints } from '../../server/db/wal/import-checkpoints.ts';
import { eventually } from '../support/eventually.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

/** An import's connection to a migrated database with a scratch table; the server's connection is closed again. */
async function importConnection(): Promise<Db> {
  const dir = freshDir();
  await (await openDatabase(dir)).close();
  const db = openConnection(dir);
  db.sqlite.exec('create table scratch (n integer, body blob)');
  return db;
}

/** One commit of ~25 pages, as an import batch would make. */
const commitBatch = (db: Db, n: number) => db.sqlite.prepare('insert into scratch (n, body) values (?, randomblob(100000))').run(n);

/** Commits rows `from` to `to` - 1, each in its own transaction, telling `checkpoints` of each as the engine does. */
function commitEach(checkpoints: WalCheckpoints, from: number, to: number, commit: (n: number) => unknown): void {
  for (let n = from; n < to; n++) {
    commit(n);
    checkpoints.committed();
  }
}
const bytes = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
/** The WAL header's checkpoint sequence number (bytes 12–15, big-endian): how many times the WAL has started over. */
function walCheckpointSequence(file: string): number {
  const header = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  return header.readUInt32BE(12);
}

/** Runs `test` on an import's connection and its checkpoints (with the thread given `threadFile`, if any), closing both after. */
async function withCheckpoints(
  test: (db: Db, checkpoints: WalCheckpoints) => Promise<void>,
  options: { limitFrames?: number; threadFile?: (db: Db) => string } = {},
): Promise<void> {
  const db = await importConnection();
  const checkpoints = new WalCheckpoints(options.threadFile ? { ...db, file: options.threadFile(db) } : db, options.limitFrames);
  try {
    await test(db, checkpoints);
  } finally {
    await checkpoints.close();
    await db.close();
  }
}

describe('WAL checkpoints of an import', () => {
  it('are copied into the database by their thread, not by the import connection’s commits', () =>
    withCheckpoints(async (db, checkpoints) => {
      assert.equal(db.sqlite.pragma('wal_autocheckpoint', { simple: true }), 0, 'the import’s commits never checkpoint');
      const before = bytes(db.file);
      commitEach(checkpoints, 0, PASS_EVERY_COMMITS, (n) => commitBatch(db, n));
      // Each batch is a 100,000-byte blob, a few of whose pages may be free pages the file already had.
      // The thread runs at a low priority: on a loaded machine its first pass may wait long.
      await eventually(() => bytes(db.file) >= before + PASS_EVERY_COMMITS * 90_000, 'the database file holds the batches', 120_000);
      assert.equal(db.sqlite.prepare('select count(*) from scratch').pluck().get(), PASS_EVERY_COMMITS);
    }));

  const limitFrames = 300;
  it('start the WAL over once it is past its limit, though the import never pauses for them', () =>
    withCheckpoints(
      async (db, checkpoints) => {
        const commits = 6000;
        const insert = db.sqlite.prepare('insert into scratch (n, body) values (?, randomblob(3000))');
        const commit = (n: number) => insert.run(n);
        commitEach(checkpoints, 0, PASS_EVERY_COMMITS, commit);
        const before = bytes(db.file);
        await eventually(() => bytes(db.file) > before, 'the thread has started and made its first pass', 120_000);
        // Back to back, as a fast import's batches: the thread's passes never catch up with the last
        // commit, so only the import connection's own checkpoint lets SQLite start the WAL over.
        commitEach(checkpoints, PASS_EVERY_COMMITS, commits, commit);
        // SQLite adds one to the WAL header's checkpoint sequence each time the WAL starts over. Left
        // to the thread alone, back-to-back commits let that happen about once (the thread's pass
        // never catches up); the import's own checkpoint past the limit, or when the thread is
        // starved (every 32 commits at worst), makes it happen ~70 times here. The file's size is no
        // measure: it keeps its largest extent, which depends on how far behind a loaded machine fell.
        const restarts = walCheckpointSequence(`${db.file}-wal`);
        assert.ok(restarts >= 5, `the WAL was started over (${restarts} times; its file is ${bytes(`${db.file}-wal`)} bytes)`);
        assert.equal(db.sqlite.prepare('select count(*) from scratch').pluck().get(), commits);
      },
      { limitFrames },
    ));

  it('hand back to SQLite’s autocheckpoint when their thread fails', () =>
    withCheckpoints(
      async (db, checkpoints) => {
        commitBatch(db, 1);
        checkpoints.committed();
        await eventually(() => db.sqlite.pragma('wal_autocheckpoint', { simple: true }) === WAL_FRAMES_LIMIT, 'autocheckpoint is back');
      },
      { threadFile: (db) => path.join(path.dirname(db.file), 'missing.sqlite') },
    ));
});
