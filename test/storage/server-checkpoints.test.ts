/**
 * The server connection's WAL checkpoints (db/wal/server-checkpoints.ts): its own commits never
 * checkpoint, so what it writes stays in the WAL until a checkpoint copies it into the database
 * file; inbox bodies past their budget bring one forward, never while an import runs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { databasePath } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { INBOX_WAL_BUDGET_BYTES, ServerCheckpoints } from '../../server/db/wal/server-checkpoints.ts';

describe('server WAL checkpoints', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-wal-'));
  const db = await openDatabase(dataDir);
  after(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  let importRunning = false;
  const checkpoints = new ServerCheckpoints({ db, logger: pino({ level: 'silent' }), importRunning: () => importRunning });
  const databaseBytes = () => fs.statSync(databasePath(dataDir)).size;
  db.sqlite.exec('create table filler (body blob)');
  const write = () => {
    const insert = db.sqlite.prepare('insert into filler values (randomblob(4096))');
    db.sqlite.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run();
    })();
  };

  it('copies the WAL into the database once the inbox budget is spent, and not before', () => {
    checkpoints.countInboxWrite(INBOX_WAL_BUDGET_BYTES); // spends what the migrations wrote
    const before = databaseBytes();
    write();
    checkpoints.countInboxWrite(INBOX_WAL_BUDGET_BYTES - 1);
    assert.equal(databaseBytes(), before, 'below the budget the rows stay in the WAL');
    checkpoints.countInboxWrite(1);
    assert.ok(databaseBytes() >= before + 500 * 4096, `the database file grew by the rows: ${before} -> ${databaseBytes()}`);
  });

  it('leaves the WAL to the import worker while an import runs, and catches up after', () => {
    const before = databaseBytes();
    write();
    importRunning = true;
    checkpoints.countInboxWrite(2 * INBOX_WAL_BUDGET_BYTES);
    assert.equal(databaseBytes(), before);
    importRunning = false;
    checkpoints.countInboxWrite(0);
    assert.ok(databaseBytes() >= before + 500 * 4096);
  });
});
