import fs from 'node:fs';
import type { Db } from '../db/database.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { taskUpdates } from '../tasks/state.ts';
import { isBlankRow, mapHeader, withColumnAliases } from './columns.ts';
import { describeError, ImportInputError, StopRequested, TooManyRowsError } from './errors.ts';
import { jobStatements, uploadPath, type ImportJob } from './job-store.ts';
import { MAX_EXCLUDED_IN_RESULTS, type ImportKind, type Tally } from './kind.ts';
import type { ImportLimits } from './limits.ts';
import { rowChecker } from './row-check.ts';
import { openSource } from './sources/open.ts';
import type { RowSource } from './sources/source.ts';

/** Rows per transaction: big enough for speed, small enough that a batch commits in tens of milliseconds. */
export const BATCH_ROWS = 5000;

/** Times a batch waits out the connection's busy timeout for the write lock before the import fails. */
const BUSY_WAITS = 10;

const isBusy = (error: unknown) => (error as { code?: string } | null)?.code?.startsWith('SQLITE_BUSY') === true;

/** A batch's rows and their indexes in the file, side by side (no object per row). */
interface Batch {
  indices: number[];
  rows: unknown[];
}

const newBatch = (): Batch => ({ indices: [], rows: [] });

export type EngineEvent = { type: 'progress'; progress: number; status: 'PROCESSING' };

export type EngineOutcome =
  | { state: 'completed'; results: Record<string, unknown> }
  | { state: 'failed'; message: string; internal: boolean }
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

  try {
    if (job.maxRows !== null && rowsDone === 0) await countRows(openSource(file, job.format, env.limits), job.maxRows);
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
  const writer = kind.openWriter({ db, organizationUuid: job.organizationUuid, geocoder: env.geocoder, options: job.options });
  const source = openSource(file, job.format, env.limits);
  const checker = rowChecker(kind, columns, { json: job.format === 'json', organizationUuid: job.organizationUuid });
  let batch = newBatch();
  let lastIndex = rowsDone - 1;
  let lastPosted = Date.now();

  // Beyond the first maxStoredExcluded rows only the count grows: the report says how many it leaves out.
  const exclude = (index: number, error: string, echo: Record<string, unknown>, cells: unknown) => {
    if (excludedCount < env.limits.maxStoredExcluded) jobs.exclude(job.taskUuid, index, error, echo, cells);
    excludedCount++;
  };

  const writeRow = (index: number, row: unknown) => {
    const checked = checker.check(index, row);
    if (!checked) return;
    if ('error' in checked) {
      exclude(index, checked.error, checked.echo, checked.cells);
      return;
    }
    const error = writer.write(checked.row, index, tally);
    if (error !== null) {
      const { echo, cells } = checker.excluded(checked.raw);
      exclude(index, error, echo, cells);
    }
  };

  /**
   * A batch whose rows are slow (geocoding) can take many seconds: every 256 rows, at most every
   * 500 ms, the live progress moves on towards where the batch ends. The task's stored progress
   * moves at the commit, with the rows.
   */
  const progressWithinBatch = (done: number, total: number, fraction: number) => {
    const now = Date.now();
    if (now - lastPosted < 500) return;
    const target = Math.min(99, Math.floor(fraction * 1000) / 10);
    const estimate = Math.floor((progress + ((target - progress) * done) / total) * 10) / 10;
    if (estimate <= progress) return;
    lastPosted = now;
    env.onEvent({ type: 'progress', progress: estimate, status: 'PROCESSING' });
  };

  let began = false;
  const commitBatch = db.sqlite.transaction((rows: Batch, upTo: number, fraction: number) => {
    began = true;
    const count = rows.rows.length;
    for (let i = 0; i < count; i++) {
      writeRow(rows.indices[i] ?? 0, rows.rows[i]);
      if ((i & 255) === 255) progressWithinBatch(i + 1, count, fraction);
    }
    rowsDone = upTo + 1;
    progress = Math.max(progress, Math.min(99, Math.floor(fraction * 1000) / 10));
    jobs.checkpoint(job.taskUuid, rowsDone, counts, excludedCount, headers);
    tasks.setProgress(job.taskUuid, progress);
  });

  const flush = () => {
    if (lastIndex < rowsDone) return;
    const rows = batch;
    batch = newBatch();
    const before = progress;
    const fraction = source.fraction();
    // SQLite's lock is not fair: with several imports writing, one may wait out the busy timeout at
    // BEGIN IMMEDIATE while others take turns. Nothing ran yet then, so waiting again is safe.
    for (let waits = 1; ; waits++) {
      began = false;
      try {
        commitBatch.immediate(rows, lastIndex, fraction);
        break;
      } catch (error) {
        if (began || !isBusy(error) || waits >= BUSY_WAITS) throw error;
      }
    }
    const now = Date.now();
    if (progress - before >= 1 || now - lastPosted >= 500) {
      lastPosted = now;
      env.onEvent({ type: 'progress', progress, status: 'PROCESSING' });
    }
    if (env.shouldStop()) throw new StopRequested();
  };

  try {
    await source.read({
      onHeader(cells) {
        checker.setMapping(mapHeader(columns, cells));
        headers = cells;
      },
      onRows(rows, firstIndex) {
        for (let i = 0; i < rows.length; i++) {
          const index = firstIndex + i;
          if (index < rowsDone) continue;
          if (index >= env.limits.maxRows) throw tooManyRows(env.limits);
          lastIndex = index;
          // A blank row keeps its index: the row checker skips it.
          batch.indices.push(index);
          batch.rows.push(rows[i]);
          if (batch.rows.length >= BATCH_ROWS) flush();
        }
      },
    });
    flush();
  } catch (error) {
    if (error instanceof StopRequested) {
      jobs.endedCleanly(job.taskUuid);
      return { state: 'stopped' };
    }
    const partly =
      rowsDone > 0
        ? ` The first ${rowsDone.toLocaleString('en-US')} rows were imported; after fixing the file, import it again (rows already imported are matched, not duplicated).`
        : '';
    if (error instanceof ImportInputError) return fail(error.message + partly, false);
    return fail(`The import stopped because of an unexpected error: ${describeError(error)}.${partly}`, true);
  }

  const encoding = source.encoding?.();
  const results = {
    ...kind.results({
      source: job.source,
      counts,
      excludedCount,
      excluded: jobs.firstExcluded(job.taskUuid, MAX_EXCLUDED_IN_RESULTS),
      options: job.options,
    }),
    ...(encoding ? { encoding } : {}),
  };
  const completed = tasks.complete(job.taskUuid, results);
  return completed ? { state: 'completed', results } : movedElsewhere('finished');
}
