import path from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { param, prepare } from '../../db/prepared.ts';
import type { Database, ImportJobTable } from '../../db/schema.ts';
import { nowIso } from '../../time.ts';
import type { ExcludedRow, ImportSource } from '../kind.ts';
import type { ImportFormat } from '../intake/sniff.ts';

/** Everything a worker needs to run (or resume) one import; what import_jobs stores. */
export interface ImportJob {
  taskUuid: string;
  /** The kind's id in the registry (kinds.ts), e.g. qrcodes; a stored row may hold one this server does not know. */
  kind: string;
  organizationUuid: string;
  /** Path of the upload relative to the data dir. */
  uploadFile: string;
  format: ImportFormat;
  source: ImportSource;
  /** Sync mode's row cap; null in background mode. */
  maxRows: number | null;
  /** Kind-specific options, passed to the kind's writer and results. */
  options: Record<string, unknown>;
  /** Runs on a scratch connection (dry-run.ts) and is never stored. */
  dryRun?: boolean;
  /** A request waits to send its results as they are (sync, dry run): big results are written here (http/json-file-writer.ts). Never stored. */
  answerFile?: string;
  /** Runs started and not ended cleanly, as stored (read at start to decide whether to resume). */
  attempts?: number;
  /** The task that retried this failed one (it owns the upload now), as stored. */
  retriedBy?: string | null;
  /** Who asked to cancel it, as stored. */
  cancelRequestedBy?: string | null;
}

/** A job whose run was cut short this many times (crash, kill, out of memory) is failed at start instead of resumed: one retry at most. */
export const MAX_ATTEMPTS = 2;

interface StoredOptions {
  source: ImportSource;
  maxRows: number | null;
  kindOptions: Record<string, unknown>;
}

export function jobFromRow(row: Selectable<ImportJobTable>): ImportJob {
  const stored = JSON.parse(row.options) as StoredOptions;
  return {
    taskUuid: row.task_uuid,
    kind: row.kind,
    organizationUuid: row.organization_uuid,
    uploadFile: row.upload_file,
    format: row.format,
    source: stored.source,
    maxRows: stored.maxRows,
    options: stored.kindOptions,
    attempts: row.attempts,
    retriedBy: row.retried_by,
    cancelRequestedBy: row.cancel_requested_by,
  };
}

export function uploadPath(dataDir: string, job: Pick<ImportJob, 'uploadFile'>): string {
  return path.join(dataDir, job.uploadFile);
}

export async function insertJob(db: Kysely<Database>, job: ImportJob): Promise<void> {
  const now = nowIso();
  const options: StoredOptions = { source: job.source, maxRows: job.maxRows, kindOptions: job.options };
  await db
    .insertInto('import_jobs')
    .values({
      task_uuid: job.taskUuid,
      kind: job.kind,
      organization_uuid: job.organizationUuid,
      upload_file: job.uploadFile,
      format: job.format,
      options: JSON.stringify(options),
      created_on: now,
      updated_on: now,
    })
    .execute();
}

export async function findJob(db: Kysely<Database>, taskUuid: string): Promise<Selectable<ImportJobTable> | undefined> {
  return db.selectFrom('import_jobs').selectAll().where('task_uuid', '=', taskUuid).executeTakeFirst();
}

/** Jobs whose task is still PENDING or PROCESSING: after a crash or quit they resume or fail. */
export async function unfinishedJobs(db: Kysely<Database>): Promise<ImportJob[]> {
  const rows = await db
    .selectFrom('import_jobs')
    .innerJoin('background_tasks', 'background_tasks.uuid', 'import_jobs.task_uuid')
    .selectAll('import_jobs')
    .where('background_tasks.status', 'in', ['PENDING', 'PROCESSING'])
    .orderBy('background_tasks.seq')
    .execute();
  return rows.map(jobFromRow);
}

/** How long the upload of a failed import is kept for a retry (removed at a start after that, or when retried to completion or discarded). */
export const KEPT_UPLOAD_DAYS = 7;

/** Failed imports whose upload is kept for a retry: not retried yet, failed within KEPT_UPLOAD_DAYS. */
export async function keptUploadJobs(db: Kysely<Database>, now = Date.now()): Promise<ImportJob[]> {
  const since = new Date(now - KEPT_UPLOAD_DAYS * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('import_jobs')
    .innerJoin('background_tasks', 'background_tasks.uuid', 'import_jobs.task_uuid')
    .selectAll('import_jobs')
    .where('background_tasks.status', '=', 'FAILED')
    .where('background_tasks.updated_on', '>=', since)
    .where('import_jobs.retried_by', 'is', null)
    .orderBy('background_tasks.seq')
    .execute();
  return rows.map(jobFromRow);
}

/** Asks a running import to stop at its next batch; false when it has no job. */
export async function requestCancel(db: Kysely<Database>, taskUuid: string, by: string): Promise<boolean> {
  const result = await db
    .updateTable('import_jobs')
    .set({ cancel_requested_by: by, updated_on: nowIso() })
    .where('task_uuid', '=', taskUuid)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks a failed import as retried by another task, which now owns its upload; false when it was retried already. */
export async function markRetried(db: Kysely<Database>, taskUuid: string, retryUuid: string): Promise<boolean> {
  const result = await db
    .updateTable('import_jobs')
    .set({ retried_by: retryUuid, updated_on: nowIso() })
    .where('task_uuid', '=', taskUuid)
    .where('retried_by', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes a job that never started (sync mode refused), with its task. */
export async function deleteJobAndTask(db: Kysely<Database>, taskUuid: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('import_excluded_rows').where('task_uuid', '=', taskUuid).execute();
    await trx.deleteFrom('import_jobs').where('task_uuid', '=', taskUuid).execute();
    await trx.deleteFrom('background_tasks').where('uuid', '=', taskUuid).execute();
  });
}

/** An excluded row's place in its file; a row stored without one (none since migration 026) is placed by its index. */
export function storedRowNumber(row: { row_index: number; row_number: number | null }): number {
  return row.row_number ?? row.row_index + 2;
}

/** Excluded rows in row order, a page at a time (for the error report). */
export async function excludedRowsPage(
  db: Kysely<Database>,
  taskUuid: string,
  afterIndex: number,
  limit: number,
): Promise<{ row_index: number; row_number: number | null; error: string; cells: string }[]> {
  return db
    .selectFrom('import_excluded_rows')
    .select(['row_index', 'row_number', 'error', 'cells'])
    .where('task_uuid', '=', taskUuid)
    .where('row_index', '>', afterIndex)
    .orderBy('row_index')
    .limit(limit)
    .execute();
}

/** The worker's synchronous statements for checkpoints and excluded rows. */
export function jobStatements(db: Db) {
  const k = db.kysely;
  const read = prepare<'task'>(db.sqlite, k.selectFrom('import_jobs').selectAll().where('task_uuid', '=', param('task')));
  const checkpoint = prepare<'task' | 'rows' | 'counts' | 'excluded' | 'headers' | 'now'>(
    db.sqlite,
    k
      .updateTable('import_jobs')
      .set({
        rows_done: param<number>('rows'),
        counts: param('counts'),
        excluded_count: param<number>('excluded'),
        headers: param('headers'),
        updated_on: param('now'),
      })
      .where('task_uuid', '=', param('task')),
  );
  const exclude = prepare<'task' | 'index' | 'number' | 'error' | 'echo' | 'cells'>(
    db.sqlite,
    k
      .insertInto('import_excluded_rows')
      .values({
        task_uuid: param('task'),
        row_index: param<number>('index'),
        row_number: param<number>('number'),
        error: param('error'),
        echo: param('echo'),
        cells: param('cells'),
      })
      .onConflict((oc) => oc.columns(['task_uuid', 'row_index']).doNothing()),
  );
  const firstExcluded = prepare<'task' | 'limit'>(
    db.sqlite,
    k
      .selectFrom('import_excluded_rows')
      .select(['row_index', 'row_number', 'error', 'echo'])
      .where('task_uuid', '=', param('task'))
      .orderBy('row_index')
      .limit(param<number>('limit')),
  );
  const attempt = prepare<'task' | 'by'>(
    db.sqlite,
    k
      .updateTable('import_jobs')
      .set((eb) => ({ attempts: eb('attempts', '+', param<number>('by')) }))
      .where('task_uuid', '=', param('task')),
  );
  const cancelRequest = prepare<'task'>(
    db.sqlite,
    k.selectFrom('import_jobs').select('cancel_requested_by').where('task_uuid', '=', param('task')),
  );
  return {
    read: (task: string) => read.get<Selectable<ImportJobTable>>({ task }),
    /** Who asked to cancel the import (an API key's name, '' when unnamed), or null. */
    cancelledBy: (task: string): string | null =>
      cancelRequest.get<{ cancel_requested_by: string | null }>({ task })?.cancel_requested_by ?? null,
    /** Counts a run as started; endedCleanly() takes it back when the run stops on request (shutdown). */
    beginAttempt: (task: string) => attempt.run({ task, by: 1 }),
    endedCleanly: (task: string) => attempt.run({ task, by: -1 }),
    checkpoint: (task: string, rows: number, counts: Record<string, number>, excluded: number, headers: string[] | null) =>
      checkpoint.run({ task, rows, counts: JSON.stringify(counts), excluded, headers: headers && JSON.stringify(headers), now: nowIso() }),
    exclude: (task: string, index: number, rowNumber: number, error: string, echo: unknown, cells: unknown) =>
      exclude.run({ task, index, number: rowNumber, error, echo: JSON.stringify(echo), cells: JSON.stringify(cells) }),
    firstExcluded: (task: string, limit: number): ExcludedRow[] =>
      firstExcluded.all<{ row_index: number; row_number: number | null; error: string; echo: string }>({ task, limit }).map((r) => ({
        index: r.row_index,
        row_number: storedRowNumber(r),
        error: r.error,
        row: JSON.parse(r.echo) as Record<string, unknown>,
      })),
  };
}
