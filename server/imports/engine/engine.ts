import fs from 'node:fs';
import { CANCELLED_MESSAGE_START } from '../../../common/cancelled.ts';
import { DiskSpace } from '../../data-dir/disk-space.ts';
import { releaseSpaceReserve } from '../../data-dir/space-reserve.ts';
import { type Db, isBusy, withBusyTimeout } from '../../db/database.ts';
import type { Geocoder } from '../../geocoding/geocoder.ts';
import { taskUpdates } from '../../tasks/state.ts';
import { isBlankRow, mapHeader, withColumnAliases } from './columns.ts';
import { CancelRequested, describeError, ImportInputError, StopRequested, TooManyRowsError } from '../errors.ts';
import { jobStatements, uploadPath, type ImportJob } from '../workers/job-store.ts';
import { MAX_EXCLUDED_IN_RESULTS, type ImportKind, type Tally } from '../kind.ts';
import type { ImportLimits } from '../limits.ts';
import { type CheckedRow, rowChecker } from './row-check.ts';
import { dropWarmReadAhead, readAhead, readsAhead } from './read-ahead.ts';
import { type RowWarning, WARNED_COUNTER, warningResults } from './row-warnings.ts';
import { fileLayoutOf, sheetToName } from './file-layout.ts';
import { fileRowWarnings } from './repeated-rows.ts';
import { openSource } from '../sources/open.ts';
import type { RowSource } from '../sources/source.ts';

/**
 * Text (characters) of the excluded rows an import stores with their cells: 480 rows whose cells
 * all hold one 1 MB shared string of a workbook would otherwise store (and the sync answer read
 * back) a gigabyte. Past it only the count grows, as past --max-stored-excluded-rows.
 */
export const STORED_EXCLUDED_CHARS = 64 * 1024 * 1024;

/** The characters of the text values of a row's cells or echo (an object or an array). */
function textChars(values: unknown): number {
  let chars = 0;
  if (values !== null && typeof values === 'object') {
    for (const value of Object.values(values)) if (typeof value === 'string') chars += value.length;
  }
  return chars;
}

/** Rows per transaction: big enough for speed, small enough that a batch commits in tens of milliseconds. */
export const BATCH_ROWS = 5000;

/** Times a batch waits out the connection's busy timeout for the write lock before the import fails. */
const BUSY_WAITS = 10;

/**
 * Rows an import reads and parses ahead (one batch) while the server's writes hold the lock
 * between two batches, before its next batch waits for the lock instead: a CSV's 64 KB pieces
 * hold about 900 rows, a workbook's hand-overs 2,000.
 */
const MAX_ROWS_AHEAD = BATCH_ROWS;

/** Rows the read-ahead thread reads and checks beyond those this thread has taken: two batches. */
const READ_AHEAD_ROWS = 2 * BATCH_ROWS;

/** progress: the live progress moved; committed: a batch committed, so the write lock is free for a moment. */
export type EngineEvent = { type: 'progress'; progress: number; status: 'PROCESSING' } | { type: 'committed' };

export type EngineOutcome =
  | { state: 'completed'; results: Record<string, unknown> }
  | { state: 'failed'; message: string; internal: boolean; diskFull?: true; cancelled?: true }
  | { state: 'stopped' }
  | { state: 'rejected'; message: string };

export interface EngineEnv {
  db: Db;
  dataDir: string;
  geocoder: Geocoder;
  kind: ImportKind;
  job: ImportJob;
  limits: ImportLimits;
  /** Checked after every batch; true makes the run stop there (the task resumes on the next start). */
  shouldStop(): boolean;
  onEvent(event: EngineEvent): void;
}

function tooManyRows(limits: ImportLimits): ImportInputError {
  return new ImportInputError(
    `The file has more than ${limits.maxRows.toLocaleString('en-US')} data rows, the limit of one import (serve --max-import-rows). Split it into smaller files.`,
  );
}

async function countRows(source: RowSource, limit: number): Promise<void> {
  let count = 0;
  await source.read({
    onHeader() {},
    onRows(rows) {
      for (const row of rows) if (row !== null && !(Array.isArray(row) && isBlankRow(row))) count++;
      if (count > limit) {
        throw new TooManyRowsError(
          `Sync mode takes at most ${limit.toLocaleString('en-US')} rows; this import has more. ` +
            'Use processing_mode=background (the default) and poll the task instead.',
        );
      }
    },
  });
}

/** A cancelled import's error_message: who, how far it got, and that what it wrote stays. */
export function cancelledMessage(by: string, rowsDone: number): string {
  const who = by === '' ? '' : ` by ${by}`;
  if (rowsDone === 0) return `${CANCELLED_MESSAGE_START}${who} before any row was written.`;
  return (
    `${CANCELLED_MESSAGE_START}${who} after ${rowsDone.toLocaleString('en-US')} rows: those rows were done (imported, or excluded with their reason) and stay; ` +
    'the results count them. The rest of the file was not read. Retry the import to run the whole file again (rows already imported are matched, not duplicated).'
  );
}

/**
 * Runs (or resumes) one import in the calling thread: streams the upload, validates each row,
 * writes batches in transactions that also checkpoint the task, and ends the task COMPLETED or
 * FAILED. A stop request leaves it PROCESSING at its last checkpoint, to resume later. The upload
 * is left in place: its owner (ImportRuntime for a job, the route for a dry run) removes it.
 */
export async function runImport(env: EngineEnv): Promise<EngineOutcome> {
  const { db, job, kind } = env;
  const tasks = taskUpdates(db);
  const jobs = jobStatements(db);
  const file = uploadPath(env.dataDir, job);
  const task = tasks.read(job.taskUuid);
  const state = jobs.read(job.taskUuid);
  if (!task || !state) return { state: 'failed', message: 'The import task no longer exists.', internal: true };
  if (task.status === 'COMPLETED' || task.status === 'FAILED') return { state: 'stopped' };

  let progress = task.progress;
  // The task left the status this run found it in, moved by someone else (tasks/state.ts refused this run's move).
  const movedElsewhere = (when: string): EngineOutcome => ({
    state: 'failed',
    message: `The import task was ended elsewhere when its run ${when} (it is ${tasks.read(job.taskUuid)?.status ?? 'gone'}); the run stopped there.`,
    internal: true,
  });
  const fail = (message: string, internal: boolean): EngineOutcome => {
    tasks.fail(job.taskUuid, message, progress);
    return { state: 'failed', message, internal };
  };
  // Writing the task's end needs room too: the data folder's reserve is given up for it when there is none.
  const failDiskFull = (message: string): EngineOutcome => {
    try {
      tasks.fail(job.taskUuid, message, progress);
    } catch (error) {
      if (!releaseSpaceReserve(env.dataDir)) throw error;
      tasks.fail(job.taskUuid, message, progress);
    }
    return { state: 'failed', message, internal: false, diskFull: true };
  };
  if (!fs.existsSync(file)) {
    return fail('The uploaded file of this import is gone (was the data folder cleaned?). Upload it again.', false);
  }

  const counts: Record<string, number> = JSON.parse(state.counts) as Record<string, number>;
  let excludedCount = state.excluded_count;
  let rowsDone = state.rows_done;
  let headers: string[] | null = state.headers ? (JSON.parse(state.headers) as string[]) : null;
  const tally: Tally = (counter, by = 1) => {
    counts[counter] = (counts[counter] ?? 0) + by;
  };
  // Warned rows are counted with the checkpoint (the count survives a resume); their first warnings are listed from this run.
  const warnings: RowWarning[] = [];
  let lastWarned = -1;
  /** Where the rows of the open batch are in the file, by index (a writer may warn at the batch's end). */
  const batchRowNumbers = new Map<number, number>();
  const warn = (index: number, warning: string) => {
    if (warnings.length < MAX_EXCLUDED_IN_RESULTS) warnings.push({ index, row_number: batchRowNumbers.get(index) ?? index + 1, warning });
    if (index !== lastWarned) tally(WARNED_COUNTER);
    lastWarned = index;
  };
  /** The kind's results of the rows committed so far (all of them once the source is read). */
  const sheet = sheetToName(fileLayoutOf(job.options));
  const resultsSoFar = () => {
    const encoding = source.encoding?.();
    return {
      ...kind.results({
        source: job.source,
        counts,
        excludedCount,
        excluded: jobs.firstExcluded(job.taskUuid, MAX_EXCLUDED_IN_RESULTS),
        options: job.options,
      }),
      ...(sheet ? { sheet } : {}),
      ...(encoding ? { encoding } : {}),
      ...warningResults(counts, warnings),
    };
  };

  try {
    if (job.maxRows !== null && rowsDone === 0)
      await countRows(openSource(file, job.format, env.limits, fileLayoutOf(job.options)), job.maxRows);
  } catch (error) {
    if (error instanceof TooManyRowsError) return { state: 'rejected', message: error.message };
    if (error instanceof ImportInputError) return fail(error.message, false);
    return fail(`The import stopped because of an unexpected error: ${describeError(error)}`, true);
  }

  jobs.beginAttempt(job.taskUuid);
  // A resumed task is PROCESSING already.
  if (task.status === 'PENDING' && !tasks.start(job.taskUuid)) return movedElsewhere('started');
  env.onEvent({ type: 'progress', progress, status: 'PROCESSING' });

  const columns = withColumnAliases(kind, job.options);
  const writer = kind.openWriter({
    db,
    organizationUuid: job.organizationUuid,
    geocoder: env.geocoder,
    options: job.options,
    // writeRow notes a row's number before it writes the row
    ...fileRowWarnings(warn, (index) => batchRowNumbers.get(index) ?? index + 1),
  });
  // A file is read and checked by a thread beside this one, which writes (read-ahead.ts).
  const ahead = readsAhead(file, job);
  if (!ahead) dropWarmReadAhead();
  const source = ahead
    ? readAhead({ file, job, limits: env.limits, skipBelow: rowsDone, maxAhead: READ_AHEAD_ROWS })
    : openSource(file, job.format, env.limits, fileLayoutOf(job.options));
  const checker = rowChecker(kind, columns, { format: job.format, organizationUuid: job.organizationUuid });
  let lastIndex = rowsDone - 1;
  let lastPosted = Date.now();
  /** Rows (blank ones too) written in the open transaction; none open when 0. */
  let inBatch = 0;

  // Beyond the first maxStoredExcluded rows, or STORED_EXCLUDED_CHARS of their text, only the count grows: the report says how many it leaves out.
  let storedChars = 0;
  const exclude = (index: number, rowNumber: number, error: string, echo: Record<string, unknown>, cells: unknown) => {
    if (excludedCount < env.limits.maxStoredExcluded && storedChars < STORED_EXCLUDED_CHARS) {
      storedChars += textChars(echo) + textChars(cells);
      jobs.exclude(job.taskUuid, index, rowNumber, error, echo, cells);
    }
    excludedCount++;
  };

  /** `ahead`: the row as the read-ahead thread checked it (undefined: check it here). */
  const writeRow = (index: number, rowNumber: number, row: unknown, ahead: CheckedRow | undefined) => {
    const checked = ahead ?? checker.check(index, row);
    if (!checked) return;
    if ('error' in checked) {
      exclude(index, rowNumber, checked.error, checked.echo, checked.cells);
      return;
    }
    batchRowNumbers.set(index, rowNumber);
    const error = writer.write(checked.row, index, tally);
    if (error !== null) {
      const { echo, cells } = checker.excluded(checked.raw);
      exclude(index, rowNumber, error, echo, cells);
    }
  };

  const percentOf = (fraction: number) => Math.min(99, Math.floor(fraction * 1000) / 10);

  /** The live progress last posted: a task's events never go backwards. */
  let shown = progress;
  const post = (value: number) => {
    shown = value;
    lastPosted = Date.now();
    env.onEvent({ type: 'progress', progress: value, status: 'PROCESSING' });
  };

  /**
   * Rows can be slow (geocoding) and a source can hand over a whole file at once (a JSON array):
   * every 256 rows, at most every 500 ms, the live progress moves on towards how far the source
   * has read, by the share of the rows at hand that are written. The task's stored progress moves
   * at the commit, with the rows.
   */
  const progressWithin = (done: number, total: number, from: number, target: number) => {
    if (Date.now() - lastPosted < 500) return;
    const estimate = Math.floor((from + ((target - from) * done) / total) * 10) / 10;
    if (estimate > shown) post(estimate);
  };

  // SQLite's lock is not fair: with several imports writing, one may wait out the busy timeout at
  // BEGIN IMMEDIATE while others take turns. Nothing ran yet then, so waiting again is safe.
  const begin = () => {
    for (let waits = 1; ; waits++) {
      try {
        db.sqlite.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error) || waits >= BUSY_WAITS) throw error;
      }
    }
  };

  /** Ends the open batch: its rows, the task's checkpoint and its stored progress commit together (and count once committed). */
  const commit = () => {
    const before = progress;
    const done = lastIndex + 1;
    const reached = Math.max(progress, percentOf(source.fraction()));
    writer.endBatch?.();
    batchRowNumbers.clear();
    jobs.checkpoint(job.taskUuid, done, counts, excludedCount, headers);
    tasks.setProgress(job.taskUuid, reached);
    db.sqlite.exec('COMMIT');
    rowsDone = done;
    progress = reached;
    inBatch = 0;
    env.onEvent({ type: 'committed' });
    if (progress > shown && (progress - before >= 1 || Date.now() - lastPosted >= 500)) post(progress);
    if (env.shouldStop()) throw new StopRequested();
    const cancelledBy = jobs.cancelledBy(job.taskUuid);
    if (cancelledBy !== null) throw new CancelRequested(cancelledBy);
  };

  /** Rows handed over by the source and not yet written, in order. */
  const queue: {
    rows: unknown[];
    rowNumbers: readonly number[];
    checked: readonly (CheckedRow | undefined)[] | undefined;
    next: number;
    firstIndex: number;
    from: number;
    target: number;
  }[] = [];
  const rowsQueued = () => queue.reduce((rows, item) => rows + item.rows.length - item.next, 0);

  /** BEGIN IMMEDIATE, or false at once when another connection holds the lock. */
  const beginNow = (): boolean =>
    withBusyTimeout(db.sqlite, 0, () => {
      try {
        db.sqlite.exec('BEGIN IMMEDIATE');
        return true;
      } catch (error) {
        if (isBusy(error)) return false;
        throw error;
      }
    });
  /**
   * Opens the next batch's transaction. When the server's writes hold the lock (they take it
   * between two batches) it returns false and the source reads and parses on: the import does
   * useful work instead of sleeping in SQLite's busy handler. At the end of the source, or
   * MAX_ROWS_AHEAD rows ahead, it waits for the lock.
   */
  const beginBatch = (final: boolean): boolean => {
    if (!final && rowsQueued() <= MAX_ROWS_AHEAD) return beginNow();
    begin();
    return true;
  };

  /**
   * Writes the queued rows. After a commit it leaves the rest for the source's next hand-over
   * (unless this is the end): the lock is then free while the source reads and parses on, which
   * is when the server's own writes get their turn (it never waits in SQLite's busy handler);
   * when they still hold it at the next batch, beginBatch leaves the rows for a later hand-over.
   */
  const drain = (final: boolean) => {
    for (let item = queue[0]; item; item = queue[0]) {
      const { rows, rowNumbers, checked, firstIndex } = item;
      while (item.next < rows.length) {
        const index = firstIndex + item.next;
        if (index >= rowsDone) {
          if (index >= env.limits.maxRows) throw tooManyRows(env.limits);
          if (inBatch === 0 && !beginBatch(final)) return;
        }
        const i = item.next++;
        if (index < rowsDone) continue;
        lastIndex = index;
        // A blank row keeps its index: the row checker skips it.
        writeRow(index, rowNumbers[i] ?? index + 1, rows[i], checked?.[i]);
        if ((i & 255) === 255) progressWithin(i + 1, rows.length, item.from, item.target);
        if (++inBatch >= BATCH_ROWS) {
          commit();
          if (!final && queue.length === 1) return;
        }
      }
      queue.shift();
    }
  };

  try {
    await source.read({
      onHeader(cells) {
        checker.setMapping(mapHeader(columns, cells));
        headers = cells;
      },
      onRows(rows, firstIndex, rowNumbers, checked?: readonly (CheckedRow | undefined)[]) {
        queue.push({ rows, rowNumbers, checked, next: 0, firstIndex, from: shown, target: percentOf(source.fraction()) });
        drain(false);
      },
    });
    drain(true);
    if (inBatch > 0) commit();
  } catch (error) {
    if (db.sqlite.inTransaction) db.sqlite.exec('ROLLBACK');
    if (error instanceof StopRequested) {
      jobs.endedCleanly(job.taskUuid);
      return { state: 'stopped' };
    }
    if (error instanceof CancelRequested) {
      jobs.endedCleanly(job.taskUuid);
      const message = cancelledMessage(error.by, rowsDone);
      tasks.fail(job.taskUuid, message, progress, resultsSoFar());
      return { state: 'failed', message, internal: false, cancelled: true };
    }
    const partly =
      rowsDone > 0
        ? ` The first ${rowsDone.toLocaleString('en-US')} rows were done: imported, or excluded with their reason (in the error report); after fixing the file, import it again (rows already imported are matched, not duplicated).`
        : '';
    if (error instanceof ImportInputError) return fail(error.message + partly, false);
    if (new DiskSpace(env.dataDir).recognise(error)) {
      const done =
        rowsDone > 0 ? ` The first ${rowsDone.toLocaleString('en-US')} rows were done (imported, or excluded with their reason).` : '';
      return failDiskFull(
        `The import stopped: the disk is full.${done} Free some space on the drive that holds the data folder (${env.dataDir}), then import the file again (rows already imported are matched, not duplicated).`,
      );
    }
    return fail(`The import stopped because of an unexpected error: ${describeError(error)}.${partly}`, true);
  }

  const results = resultsSoFar();
  const completed = tasks.complete(job.taskUuid, results);
  return completed ? { state: 'completed', results } : movedElsewhere('finished');
}
