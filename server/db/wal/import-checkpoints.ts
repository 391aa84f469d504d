import { Worker } from 'node:worker_threads';
import { type Db, withBusyTimeout } from '../database.ts';
import { moduleUrl } from '../../module-url.ts';
import { COMMITS, PASSED_AT, SLOTS, STARVED_AFTER_COMMITS, STOP, WAL_FRAMES, type CheckpointThreadData } from './checkpoint-shared.ts';

/** How long the checkpoint at an import's end waits for other connections' transactions. */
const IMPORT_END_CHECKPOINT_WAIT_MS = 1000;

/** The WAL's length at which the import's own connection ends a checkpoint (~80 MB, as SQLite's autocheckpoint did before). */
export const WAL_FRAMES_LIMIT = 20_000;

/**
 * Checkpoints of an import worker's WAL, copied into the database by a thread of their own
 * instead of by the import's commits: that copy and its fsync took ~0.8 s of the import's thread
 * per 1M QR code rows (11% of its time), and under load each wake-up from the fsync's waits
 * waited for a core again. The thread's passes run beside the import's writes (a PASSIVE
 * checkpoint takes no lock they need). SQLite starts the WAL over only when a checkpoint has
 * copied all of it before a batch begins, so once the WAL is past its limit the import's
 * connection runs one checkpoint itself, of the little the thread has not copied yet. Should the
 * thread fail, SQLite's own autocheckpoint takes over again.
 */
export class WalCheckpoints {
  private readonly db: Db;
  private readonly walFramesLimit: number;
  private readonly shared = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  /** The thread, started at the first commit, and its end. */
  private thread: { worker: Worker; exited: Promise<void> } | undefined;

  constructor(db: Db, walFramesLimit = WAL_FRAMES_LIMIT) {
    this.db = db;
    this.walFramesLimit = walFramesLimit;
    db.sqlite.pragma('wal_autocheckpoint = 0');
  }

  /** After each commit of the import's connection. */
  committed(): void {
    this.thread ??= this.start();
    const commits = Atomics.add(this.shared, COMMITS, 1) + 1;
    Atomics.notify(this.shared, COMMITS);
    // A thread starved of CPU (a loaded machine; it runs at a low priority) reports nothing while
    // the WAL grows: then the import's connection checkpoints itself now and then.
    const starved = commits - Atomics.load(this.shared, PASSED_AT) > STARVED_AFTER_COMMITS;
    if (!starved && Atomics.load(this.shared, WAL_FRAMES) < this.walFramesLimit) return;
    if (starved) Atomics.store(this.shared, PASSED_AT, commits);
    // The thread waits meanwhile. Busy (another connection checkpointing) or failed: again at the
    // next commit; a checkpoint that could not run never fails the import's batch.
    try {
      const [result] = this.db.sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
      if (result?.busy === 0) Atomics.store(this.shared, WAL_FRAMES, 0);
    } catch {
      // As SQLite's autocheckpoint, whose errors never fail the commit that ran it.
    }
  }

  /**
   * Copies the rest of the import's WAL into the database, so the server's next write does not
   * pay for it, and empties the WAL file (a large import leaves it at about 80 MB) so the disk gets
   * that space back. Waits up to IMPORT_END_CHECKPOINT_WAIT_MS for other connections'
   * transactions; if they hold on, the WAL is left as it is (only an optimisation: a later
   * checkpoint copies it).
   */
  atImportEnd(): void {
    try {
      withBusyTimeout(this.db.sqlite, IMPORT_END_CHECKPOINT_WAIT_MS, () => this.db.sqlite.pragma('wal_checkpoint(TRUNCATE)'));
    } catch {
      // See above: nothing is lost.
    }
  }

  /** Ends the thread (after its pass, if one is running). */
  async close(): Promise<void> {
    if (!this.thread) return;
    this.thread.worker.ref();
    Atomics.store(this.shared, STOP, 1);
    Atomics.add(this.shared, COMMITS, 1);
    Atomics.notify(this.shared, COMMITS);
    await this.thread.exited;
  }

  private start(): { worker: Worker; exited: Promise<void> } {
    const data: CheckpointThreadData = { file: this.db.file, shared: this.shared, walFramesLimit: this.walFramesLimit };
    const worker = new Worker(moduleUrl('./checkpoint-thread.ts', import.meta.url), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
    worker.unref();
    // An error is followed by the exit; stopping is the only other way out.
    worker.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => {
      worker.once('exit', () => {
        const unexpected = Atomics.load(this.shared, STOP) === 0 && this.db.sqlite.open;
        if (unexpected) this.db.sqlite.pragma(`wal_autocheckpoint = ${this.walFramesLimit}`);
        resolve();
      });
    });
    return { worker, exited };
  }
}
