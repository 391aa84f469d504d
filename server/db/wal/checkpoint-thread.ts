/**
 * The thread of WalCheckpoints (wal-checkpoints.ts): its own connection copies the import's WAL
 * into the database every PASS_EVERY_COMMITS commits of the import's connection, and reports the
 * WAL's length in frames. It sleeps on the shared counter of commits between passes.
 */
import os from 'node:os';
import { workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { COMMITS, PASS_EVERY_COMMITS, PASSED_AT, STOP, WAL_FRAMES, type CheckpointThreadData } from './checkpoint-shared.ts';

const { file, shared, walFramesLimit } = workerData as CheckpointThreadData;
// On Linux a nice value is a thread's own (os.setPriority(0) is this thread): the copying yields
// the cores to the server and to the import itself. Elsewhere it would be the whole worker's.
if (process.platform === 'linux') os.setPriority(0, 10);
const db = new SQLite(file, { fileMustExist: true });
try {
  let passedAt = 0;
  while (Atomics.load(shared, STOP) === 0) {
    const commits = Atomics.load(shared, COMMITS);
    // Past the limit, the import's connection ends the checkpoint at its next commit: no pass may
    // then hold the checkpoint lock, or the WAL could not start over.
    const due = commits - passedAt >= PASS_EVERY_COMMITS && Atomics.load(shared, WAL_FRAMES) < walFramesLimit;
    if (!due) {
      Atomics.wait(shared, COMMITS, commits);
      continue;
    }
    passedAt = commits;
    Atomics.store(shared, PASSED_AT, commits);
    // PASSIVE: copies what no reader still needs and never waits for a lock or a reader.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    Atomics.store(shared, WAL_FRAMES, result?.log ?? 0);
  }
} finally {
  db.close();
}
