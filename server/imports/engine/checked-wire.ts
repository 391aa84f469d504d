import type { ImportJob } from '../workers/job-store.ts';
import type { ImportLimits } from '../limits.ts';
import type { TextEncodingName } from '../text-encodings.ts';

/** What the read-ahead thread is started with (read-ahead-thread.ts). */
export interface ReadAheadData {
  file: string;
  job: ImportJob;
  limits: ImportLimits;
  /** Rows below this index were done by an earlier run: the thread hands them over unchecked. */
  skipBelow: number;
  /** [TAKEN, STOP]: rows the engine has taken, and 1 once the engine wants no more. */
  shared: Int32Array;
  /** Rows the thread may hand over beyond those the engine has taken. */
  maxAhead: number;
}

export const TAKEN = 0;
export const STOP = 1;
export const SHARED_SLOTS = 2;

/**
 * A row the thread checked and found valid (tag 0: the engine checks the row itself, the check
 * being pure: blank, excluded, below skipBelow, or valid with values that are not plain data).
 */
export const VALID = 1;

/**
 * One hand-over of the source, as the thread read and checked it. A valid row travels as its
 * shape's number, a bit mask of the values that are the row's own raw cells (sent once, with the
 * cells), then its values: structured clone reads flat arrays of strings several times faster
 * than objects, and most of a row's values are its cells as they were.
 */
export interface AheadRows {
  type: 'rows';
  firstIndex: number;
  rowNumbers: readonly number[];
  /** The raw rows as the source gave them. */
  rows: unknown[];
  /** VALID or 0, one per row. */
  tags: Uint8Array;
  values: unknown[];
  /** Keys of shapes first used in this hand-over, numbered on from those sent before. */
  shapes: string[][];
  fraction: number;
  encoding: TextEncodingName | null;
}

export type FromReadAhead =
  | { type: 'header'; cells: string[] }
  | AheadRows
  | { type: 'end'; fraction: number; encoding: TextEncodingName | null }
  | { type: 'error'; input: boolean; message: string; field: string; code?: string };

/** The values a valid row may hold to travel as one (anything else: the engine checks that row itself). */
export function isPlainValue(value: unknown): boolean {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || value === undefined || value === null || value instanceof Date;
}
