import type { AppContext } from '../../context.ts';

/**
 * Bytes of inbox bodies written between WAL checkpoints. The server checkpoints every 30 s (and
 * never on its own commits); a flood of large deliveries would grow the WAL by hundreds of MB in
 * that time (each body is written twice: stored raw, then with its verdicts), and the checkpoint
 * that follows would hold the main thread for seconds. Small, frequent checkpoints bound both.
 */
export const INBOX_WAL_BUDGET_BYTES = 32 * 1024 * 1024;

const written = new WeakMap<AppContext, number>();

/** Counts a stored body; past the budget, folds the WAL back into the database unless an import is running (its worker checkpoints then). */
export function countInboxWrite(ctx: AppContext, bytes: number): void {
  const total = (written.get(ctx) ?? 0) + bytes;
  if (total < INBOX_WAL_BUDGET_BYTES || ctx.imports.busy > 0) {
    written.set(ctx, total);
    return;
  }
  written.set(ctx, 0);
  try {
    ctx.db.sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    ctx.logger.warn({ err: error }, 'inbox: WAL checkpoint failed');
  }
}
