/** What WalCheckpoints and its thread share: slots of an Int32Array on a SharedArrayBuffer. */

/** Commits of the import's connection so far (the thread waits on it). */
export const COMMITS = 0;
/** The WAL's length in frames at the thread's last pass. */
export const WAL_FRAMES = 1;
/** Set to 1: the thread closes its connection and ends. */
export const STOP = 2;
/** The commit count at which the thread last started a pass. */
export const PASSED_AT = 3;
export const SLOTS = 4;

/** A pass every 8 batches (40,000 rows): pages that every batch touches are copied once per 8. */
export const PASS_EVERY_COMMITS = 8;

/** Commits without a pass of the thread (starved of CPU) after which the import's connection checkpoints itself. */
export const STARVED_AFTER_COMMITS = 4 * PASS_EVERY_COMMITS;

export interface CheckpointThreadData {
  file: string;
  shared: Int32Array;
  /** The WAL's length in frames past which the import's connection ends the checkpoint. */
  walFramesLimit: number;
}
