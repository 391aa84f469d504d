import fs from 'node:fs';
import type { Db } from '../db/database.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { taskUpdates } from '../tasks/lifecycle.ts';
import { isBlankRow, mapHeader, recordFromCells, recordFromObject, withColumnAliases } from './columns.ts';
import { describeError, ImportInputError, StopRequested, TooManyRowsError } from './errors.ts';
import { jobStatements, uploadPath, type ImportJob } from './job-store.ts';
import { MAX_EXCLUDED_IN_RESULTS, type ImportKind, type RawRecord, type Tally } from './kind.ts';
import { rowErrorMessage } from './row-errors.ts';
import { csvSource } from './sources/csv.ts';
import { jsonSource } from './sources/json.ts';
import type { RowSource } from './sources/source.ts';
import { xlsxSource } from './sources/xlsx.ts';

/** Rows per transaction: big enough for speed, small enough that a batch commits in tens of milliseconds. */
export const BATCH_ROWS = 5000;

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
  /** Checked after every batch; true makes the run stop there (the task resumes on the next start). */
  shouldStop(): boolean;
  onEvent(event: EngineEvent): void;
}

export function openSource(file: string, format: ImportJob['format']): RowSource {
  if (format === 'csv') return csvSource(file);
  if (format === 'xlsx') return xlsxSource(file);
  return jsonSource(file);
}

function plainCells(cells: readonly unknown[]): unknown[] {
  return cells.map((c) => (c instanceof Date ? c.toISOString() : c));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
 * FAILED. A stop request leaves it PROCESSING at its last checkpoint, to resume later.
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
  const fail = (message: string, internal: boolean): EngineOutcome => {
    tasks.fail(job.taskUuid, message, progress);
    fs.rmSync(file, { force: true });
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
    if (job.maxRows !== null && rowsDone === 0) await countRows(openSource(file, job.format), job.maxRows);
  } catch (error) {
    if (error instanceof TooManyRowsError) {
      fs.rmSync(file, { force: true });
      return { state: 'rejected', message: error.message };
    }
    if (error instanceof ImportInputError) return fail(error.message, false);
    return fail(`The import stopped because of an unexpected error: ${describeError(error)}`, true);
  }

  tasks.markProcessing(job.taskUuid);
  env.onEvent({ type: 'progress', progress, status: 'PROCESSING' });

  const columns = withColumnAliases(kind, job.options);
  const writer = kind.openWriter({ db, organizationUuid: job.organizationUuid, geocoder: env.geocoder, options: job.options });
  const source = openSource(file, job.format);
  const keyMap = new Map<string, string | null>();
  let mapping: (string | null)[] = [];
  let batch: { index: number; row: unknown }[] = [];
  let lastIndex = rowsDone - 1;
  let lastPosted = Date.now();

  const excludeRow = (index: number, error: string, record: RawRecord, cells: unknown) => {
    excludedCount++;
    jobs.exclude(job.taskUuid, index, error, kind.echo(record), cells);
  };

  const writeRow = (index: number, row: unknown) => {
    let record: RawRecord;
    let cells: unknown;
    if (job.format === 'json') {
      if (!isPlainObject(row)) {
        excludeRow(index, 'Each element of the array must be an object.', {}, row);
        return;
      }
      record = recordFromObject(columns, keyMap, row);
      cells = row;
    } else {
      record = recordFromCells(mapping, row as unknown[]);
      cells = plainCells(row as unknown[]);
    }
    const org = record.organization_uuid;
    if (org !== undefined && org !== null && String(org).trim() !== '' && String(org).trim() !== job.organizationUuid) {
      excludeRow(index, `organization_uuid: ${String(org)} is not the organization of this import (${job.organizationUuid}); every row must name the same one.`, record, cells);
      return;
    }
    const parsed = kind.rowSchema.safeParse(kind.prepare ? kind.prepare(record) : record);
    if (!parsed.success) {
      excludeRow(index, rowErrorMessage(parsed.error), record, cells);
      return;
    }
    const error = writer.write(parsed.data, index, tally);
    if (error !== null) excludeRow(index, error, record, cells);
  };

  const commitBatch = db.sqlite.transaction((rows: { index: number; row: unknown }[], upTo: number, fraction: number) => {
    for (const { index, row } of rows) writeRow(index, row);
    rowsDone = upTo + 1;
    progress = Math.max(progress, Math.min(99, Math.floor(fraction * 1000) / 10));
    jobs.checkpoint(job.taskUuid, rowsDone, counts, excludedCount, headers);
    tasks.setProgress(job.taskUuid, progress);
  });

  const flush = () => {
    if (lastIndex < rowsDone) return;
    const rows = batch;
    batch = [];
    const before = progress;
    commitBatch.immediate(rows, lastIndex, source.fraction());
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
        mapping = mapHeader(columns, cells);
        headers = cells;
      },
      onRows(rows, firstIndex) {
        for (let i = 0; i < rows.length; i++) {
          const index = firstIndex + i;
          if (index < rowsDone) continue;
          lastIndex = index;
          const row = rows[i];
          if (row === null || (Array.isArray(row) && isBlankRow(row))) continue;
          batch.push({ index, row });
          if (batch.length >= BATCH_ROWS) flush();
        }
      },
    });
    flush();
  } catch (error) {
    if (error instanceof StopRequested) return { state: 'stopped' };
    const partly =
      rowsDone > 0
        ? ` The first ${rowsDone.toLocaleString('en-US')} rows were imported; after fixing the file, import it again (rows already imported are matched, not duplicated).`
        : '';
    if (error instanceof ImportInputError) return fail(error.message + partly, false);
    return fail(`The import stopped because of an unexpected error: ${describeError(error)}.${partly}`, true);
  }

  const results = kind.results({
    source: job.source,
    counts,
    excludedCount,
    excluded: jobs.firstExcluded(job.taskUuid, MAX_EXCLUDED_IN_RESULTS),
    options: job.options,
  });
  tasks.complete(job.taskUuid, results);
  fs.rmSync(file, { force: true });
  return { state: 'completed', results };
}
