import type { Logger } from 'pino';
import type { Db } from '../database.ts';

/** How often the server folds the WAL back into the database when no import runs. */
export const WAL_CHECKPOINT_MS = 30_000;

/**
 * Bytes of inbox bodies written between WAL checkpoints. The server checkpoints every 30 s (and
 * never on its own commits); a flood of large deliveries would grow the WAL by hundreds of MB in
 * that time (each body is written twice: stored raw, then with its verdicts), and the checkpoint
 * that follows would hold the main thread for seconds. Small, frequent checkpoints bound both.
 */
export const INBOX_WAL_BUDGET_BYTES = 32 * 1024 * 1024;

export interface ServerCheckpointsOptions {
  db: Db;
  logger: Logger;
  /** While an import runs, its worker checkpoints (db/wal/import-checkpoints.ts) and the server does not. */
  importRunning(): boolean;
  /** A failed checkpoint's error, e.g. a full disk the database file cannot grow on. */
  onError?(error: unknown): void;
}

/**
 * The server connection's WAL checkpoints (its own commits never checkpoint: wal_autocheckpoint is
 * 0, so a request never stalls on one). PASSIVE every WAL_CHECKPOINT_MS, and sooner after
 * INBOX_WAL_BUDGET_BYTES of inbox bodies; never while an import runs.
 */
export class ServerCheckpoints {
  private readonly options: ServerCheckpointsOptions;
  private timer: NodeJS.Timeout | undefined;
  private inboxBytes = 0;

  constructor(options: ServerCheckpointsOptions) {
    this.options = options;
  }

  start(): void {
    this.timer ??= setInterval(() => this.checkpoint(), WAL_CHECKPOINT_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Counts inbox bytes written; past the budget, checkpoints now. */
  countInboxWrite(bytes: number): void {
    this.inboxBytes += bytes;
    if (this.inboxBytes < INBOX_WAL_BUDGET_BYTES || this.options.importRunning()) return;
    this.checkpoint();
  }

  private checkpoint(): void {
    if (this.options.importRunning()) return;
    this.inboxBytes = 0;
    try {
      this.options.db.sqlite.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      // The WAL keeps the data; the next checkpoint tries again.
      this.options.onError?.(error);
      this.options.logger.warn({ err: error }, 'could not fold the WAL back into the database; trying again later');
    }
  }
}
