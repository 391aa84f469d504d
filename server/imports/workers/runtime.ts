import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { DraftCheckResult } from '../../import-drafts/check-rows.ts';
import type { Geocoder } from '../../geocoding/geocoder.ts';
import { ensurePrivateDir } from '../../data-dir/private-files.ts';
import { ApiError } from '../../http/errors.ts';
import type { JsonFile } from '../../http/json-file.ts';
import type { LiveBus } from '../../live/bus.ts';
import { findKeyNameByUuid } from '../../auth/store.ts';
import { publishTaskCreated, publishTaskFinished, publishTaskProgress } from '../../tasks/lifecycle.ts';
import { createPendingTask, failTask } from '../../tasks/state.ts';
import { cancelledMessage } from '../engine/engine.ts';
import { importKinds, isImportKindId } from '../kinds.ts';
import { findTask } from '../../tasks/store.ts';
import type { BackgroundTask, TaskType } from '../../tasks/schemas.ts';
import { loadGeocoderFrom } from '../engine/geocoder-source.ts';
import {
  deleteJobAndTask,
  findJob,
  insertJob,
  jobFromRow,
  keptUploadJobs,
  markRetried,
  KEPT_UPLOAD_DAYS,
  MAX_ATTEMPTS,
  requestCancel,
  unfinishedJobs,
  uploadPath,
  type ImportJob,
} from './job-store.ts';
import type { ImportSource } from '../kind.ts';
import { UploadReaders } from '../intake/upload-readers.ts';
import type { ResolvedLayout } from '../intake/layout.ts';
import { type PoolOutcome, WorkerPool } from './pool.ts';
import type { ImportKindId, ImportPreview } from '../schemas.ts';
import { UPLOADS_DIR, type ImportSettings } from '../settings.ts';
import type { ImportFormat } from '../intake/sniff.ts';
import type { UploadLease } from '../intake/upload.ts';
import type { UploadReadInput, WorkerConfig } from './worker-messages.ts';

export interface ImportRequest {
  kind: ImportKindId;
  taskType: TaskType;
  source: ImportSource;
  format: ImportFormat;
  /** The upload; submit() hands it over to the import's job once the job row names it. */
  upload: UploadLease;
  organizationUuid: string;
  createdByUuid: string;
  metadata: Record<string, unknown> | null;
  mode: 'background' | 'sync';
  /** Passed to the kind's writer and results; `columnAliases` ({ header: column }) adds header names for this import. */
  options?: Record<string, unknown>;
  /** Sync: the caller sends the results as they are, so big ones may come as a file (JsonFile). */
  answerAsIs?: boolean;
}

/** Results as a route sends them: an object, or big ones as the worker wrote them (http/json-file.ts). */
export type ImportAnswer = Record<string, unknown> | JsonFile;

/**
 * An import of an upload this large (about 10,000 CSV rows) ends the idle upload readers as it
 * starts: its header was read, it runs for seconds, and its worker needs the memory more (an idle
 * reader holds about 100 MB). A smaller import is over in about a second and leaves the reader
 * ready for the next upload (the next import, preview or draft check would wait for a new one).
 */
const READERS_YIELD_BYTES = 1024 * 1024;

/** A file named as a workbook (.xlsx, .xlsm, .xls, .ods): only a hint, the upload's content says what it is. */
function isWorkbookName(fileName: string | null | undefined): boolean {
  return /\.(xlsx|xlsm|xls|ods)$/i.test(fileName ?? '');
}

/** A finished run's answer, or the API error it means. */
function answerOf(outcome: PoolOutcome, afterShutdown: string): ImportAnswer {
  if (outcome.state === 'completed') return outcome.results;
  if (outcome.state === 'rejected') {
    throw new ApiError('VALIDATION_ERROR', outcome.message, [{ path: 'processing_mode', message: outcome.message }]);
  }
  if (outcome.state === 'failed' && outcome.diskFull) throw new ApiError('INSUFFICIENT_STORAGE', outcome.message);
  if (outcome.state === 'failed' && outcome.cancelled) throw new ApiError('CONFLICT', outcome.message);
  if (outcome.state === 'failed' && !outcome.internal) throw new ApiError('VALIDATION_ERROR', outcome.message);
  if (outcome.state === 'failed') throw new ApiError('INTERNAL', outcome.message);
  throw new ApiError('CONFLICT', `The server is shutting down; ${afterShutdown}.`);
}

/**
 * The import machinery of one server: the worker pool, task submission in both modes, live
 * events, and recovery of imports interrupted by a crash or quit.
 */
export class ImportRuntime {
  readonly settings: ImportSettings;
  private readonly db: Db;
  /** An import failed for want of space (the server's disk state, which the GUI's banner shows). */
  private readonly onDiskFull: () => void;
  private readonly logger: Logger;
  private readonly live: LiveBus;
  private readonly pool: WorkerPool;
  /** The running tasks as created, so each progress event carries the whole task (the GUI may not have seen it yet). */
  private readonly running = new Map<string, BackgroundTask>();
  /** Tasks whose import is not over: queued, running, or ended in the database with its worker's last work and the upload's removal still to come. */
  private readonly handling = new Set<string>();
  private readonly uploadReaders: UploadReaders;

  constructor(input: { db: Db; logger: Logger; live: LiveBus; settings: ImportSettings; onDiskFull?: () => void }) {
    this.onDiskFull = input.onDiskFull ?? (() => {});
    this.db = input.db;
    this.logger = input.logger;
    this.live = input.live;
    this.settings = input.settings;
    ensurePrivateDir(this.uploadsDir);
    const config: WorkerConfig = {
      dataDir: input.settings.dataDir,
      geocoderModule: input.settings.geocoderModule,
      limits: input.settings.limits,
      bigAnswerBytes: input.settings.bigAnswerBytes,
      entry: input.settings.workerEntry,
    };
    this.uploadReaders = new UploadReaders({
      config,
      readers: input.settings.readers,
      deadlineMs: input.settings.readDeadlineMs,
      idleMs: input.settings.workerIdleMs,
    });
    this.pool = new WorkerPool({
      size: input.settings.workers,
      idleMs: input.settings.workerIdleMs,
      config,
      logger: input.logger,
      onProgress: (taskUuid, progress) => {
        const task = this.running.get(taskUuid);
        if (task) publishTaskProgress(this.live, task, progress);
      },
      onCrash: async (job, message) => {
        if (!job.dryRun) await failTask(this.db.kysely, job.taskUuid, message);
      },
    });
  }

  get uploadsDir(): string {
    return path.join(this.settings.dataDir, UPLOADS_DIR);
  }

  /** The geocoder for work on this thread (QR code create and update). */
  geocoder(): Promise<Geocoder> {
    return loadGeocoderFrom(this.settings.geocoderModule);
  }

  /**
   * Gets a reader ready for an upload's header while the upload arrives (of `uploadBytes`, when
   * known), and a worker for its import. Not the worker for a workbook of READERS_YIELD_BYTES or
   * more: reading its header holds the reader at 130 to 150 MB for about a second, and a worker
   * starting beside it (150 MB) made that moment the import's peak of memory; it starts after the
   * header read instead, when the import is submitted.
   */
  warm(kind: ImportKindId, uploadBytes?: number, fileName?: string | null): void {
    if (!(isWorkbookName(fileName) && (uploadBytes ?? 0) >= READERS_YIELD_BYTES)) this.pool.warm(kind, uploadBytes);
    this.warmUploadReader();
  }

  /** Gets an upload reader ready while an upload arrives (a preview's). */
  warmUploadReader(): void {
    this.uploadReaders.warm();
  }

  /** Where an upload's table is and how its header reads (intake/layout.ts), read by an upload reader (never on this thread). */
  async layout(input: UploadReadInput<'layout'>): Promise<ResolvedLayout> {
    return (await this.uploadReaders.run({ op: 'layout', ...input })) as ResolvedLayout;
  }

  /** The first rows of an upload as the import would read them (preview.ts), read by an upload reader. */
  async preview(input: Omit<UploadReadInput<'preview'>, 'answerFile'>): Promise<ImportPreview | JsonFile> {
    return (await this.uploadReaders.run({ op: 'preview', ...input, answerFile: this.answerFile() })) as ImportPreview | JsonFile;
  }

  /** A draft's rows checked as their import would check them (import-drafts/check-rows.ts), by an upload reader. */
  async checkDraftRows(request: UploadReadInput<'check-rows'>): Promise<DraftCheckResult> {
    return (await this.uploadReaders.run({ op: 'check-rows', ...request })) as DraftCheckResult;
  }

  /**
   * Resumes imports left PENDING or PROCESSING by a crash or quit; fails those whose upload is
   * gone and those whose run was already cut short MAX_ATTEMPTS times (a poison task would
   * otherwise take the worker or the server down on every start); removes uploads that a crash
   * left without a task (older than this start).
   */
  async recover(): Promise<void> {
    if (this.settings.startReaderEarly) this.uploadReaders.warm();
    const startedAt = Date.now();
    const jobs = await unfinishedJobs(this.db.kysely);
    const forRetry = await keptUploadJobs(this.db.kysely, startedAt);
    const kept = new Set([...jobs, ...forRetry].map((job) => path.basename(job.uploadFile)));
    for (const name of fs.readdirSync(this.uploadsDir)) {
      const file = path.join(this.uploadsDir, name);
      if (!kept.has(name) && fs.statSync(file).mtimeMs < startedAt - 1000) fs.rmSync(file, { force: true });
    }
    for (const job of jobs) {
      if (!fs.existsSync(uploadPath(this.settings.dataDir, job))) {
        await failTask(
          this.db.kysely,
          job.taskUuid,
          'The import was interrupted and its uploaded file is gone, so it cannot resume. Upload the file again.',
        );
        await publishTaskFinished(this.live, this.db.kysely, job.taskUuid);
        continue;
      }
      if ((job.attempts ?? 0) >= MAX_ATTEMPTS) {
        await failTask(
          this.db.kysely,
          job.taskUuid,
          `The import was cut short ${job.attempts} times while it ran (its worker or the server stopped without finishing), so it is not resumed again. Check the file (a very large cell or row?) and import it again.`,
        );
        await this.removeUpload(job);
        await publishTaskFinished(this.live, this.db.kysely, job.taskUuid);
        continue;
      }
      this.logger.info({ task: job.taskUuid }, 'resuming interrupted import');
      void this.execute({ ...job, maxRows: null });
    }
  }

  /**
   * Creates the task (PENDING) and its job, then runs it in a worker. Background: answers at
   * once with the task. Sync: waits for the end and answers the results (400 when the file is
   * over the sync cap or cannot be read). The upload's lease passes to the job as the job row
   * commits: from then on the job owns the file (see execute) and the caller's release() leaves it.
   */
  async submit(request: ImportRequest): Promise<{ task: BackgroundTask; results?: ImportAnswer }> {
    const job = { ...this.jobFor(request), ...(request.mode === 'sync' && request.answerAsIs ? { answerFile: this.answerFile() } : {}) };
    const startedBy = await findKeyNameByUuid(this.db.kysely, request.createdByUuid);
    const metadata = startedBy ? { ...request.metadata, api_key_name: startedBy.name, api_key_role: startedBy.role } : request.metadata;
    const task = await this.db.kysely.transaction().execute(async (trx) => {
      const created = await createPendingTask(trx, {
        taskType: request.taskType,
        organizationUuid: request.organizationUuid,
        createdByUuid: request.createdByUuid,
        metadata,
      });
      await insertJob(trx, { ...job, taskUuid: created.uuid });
      return created;
    });
    request.upload.handOver();
    publishTaskCreated(this.live, task);
    const running = this.execute({ ...job, taskUuid: task.uuid }, task);
    if (request.mode === 'background') return { task };
    const outcome = await running;
    if (outcome.state === 'stopped') {
      const ended = await findTask(this.db.kysely, task.uuid);
      if (ended?.status === 'FAILED') throw new ApiError('CONFLICT', ended.error_message ?? `Task ${task.uuid} was cancelled.`);
    }
    if (outcome.state === 'rejected') {
      await deleteJobAndTask(this.db.kysely, task.uuid);
      this.live.publish({ type: 'task.removed', organization_uuid: task.organization_uuid, data: { uuid: task.uuid } });
    }
    return { task, results: answerOf(outcome, `the import (task ${task.uuid}) resumes when it starts again`) };
  }

  /**
   * Runs the import in a worker without writing anything (dry-run.ts) and answers what it would
   * give in the request's mode; errors as submit() gives them. The caller keeps the upload's lease.
   */
  async dryRun(request: Omit<ImportRequest, 'taskType' | 'createdByUuid' | 'metadata'>): Promise<ImportAnswer> {
    const job: ImportJob = { ...this.jobFor(request), taskUuid: randomUUID(), dryRun: true, answerFile: this.answerFile() };
    return answerOf(await this.pool.run(job), 'run the check again');
  }

  /**
   * Cancels a PENDING or PROCESSING import: a PENDING one ends FAILED at once; a running one is
   * asked to stop at its next batch (engine.ts), keeping the rows it wrote. Answers the task as it now is.
   */
  async cancel(task: BackgroundTask, by: string): Promise<BackgroundTask> {
    if (task.status === 'COMPLETED' || task.status === 'FAILED') {
      throw new ApiError(
        'CONFLICT',
        `Task ${task.uuid} has already ended (${task.status}); only a PENDING or PROCESSING import can be cancelled.`,
      );
    }
    if (!(await requestCancel(this.db.kysely, task.uuid, by))) throw new ApiError('CONFLICT', `Task ${task.uuid} is not an import.`);
    if (await failTask(this.db.kysely, task.uuid, cancelledMessage(by, 0), { onlyIfPending: true })) {
      return (await publishTaskFinished(this.live, this.db.kysely, task.uuid)) ?? task;
    }
    return (await findTask(this.db.kysely, task.uuid)) ?? task;
  }

  /**
   * Runs a FAILED import again from its kept upload, as a new background task whose metadata
   * names the old one (`retry_of`); the old task's job records the new one (`retried_by`), which
   * now owns the upload.
   */
  async retry(task: BackgroundTask, createdByUuid: string): Promise<BackgroundTask> {
    const row = await findJob(this.db.kysely, task.uuid);
    if (!row) throw new ApiError('CONFLICT', `Task ${task.uuid} is not an import of a file or JSON body; there is nothing to retry.`);
    const old = jobFromRow(row);
    if (task.status !== 'FAILED')
      throw new ApiError('CONFLICT', `Task ${task.uuid} is ${task.status}; only a FAILED import can be retried.`);
    if (old.retriedBy) throw new ApiError('CONFLICT', `Task ${task.uuid} was retried already, as task ${old.retriedBy}.`);
    if (!fs.existsSync(uploadPath(this.settings.dataDir, old))) {
      throw new ApiError(
        'CONFLICT',
        `The upload of task ${task.uuid} is no longer kept (discarded, or older than ${KEPT_UPLOAD_DAYS} days); upload the file again.`,
      );
    }
    const job: Omit<ImportJob, 'taskUuid'> = {
      kind: old.kind,
      organizationUuid: old.organizationUuid,
      uploadFile: old.uploadFile,
      format: old.format,
      source: old.source,
      maxRows: null,
      options: isImportKindId(old.kind) ? importKinds[old.kind].backgroundOptions(old.options) : old.options,
    };
    const startedBy = await findKeyNameByUuid(this.db.kysely, createdByUuid);
    const created = await this.db.kysely.transaction().execute(async (trx) => {
      const retry = await createPendingTask(trx, {
        taskType: task.task_type as TaskType,
        organizationUuid: task.organization_uuid,
        createdByUuid,
        metadata: {
          ...task.metadata,
          retry_of: task.uuid,
          ...(startedBy ? { api_key_name: startedBy.name, api_key_role: startedBy.role } : {}),
        },
      });
      if (!(await markRetried(trx, task.uuid, retry.uuid))) throw new ApiError('CONFLICT', `Task ${task.uuid} was retried already.`);
      await insertJob(trx, { ...job, taskUuid: retry.uuid });
      return retry;
    });
    publishTaskCreated(this.live, created);
    void this.execute({ ...job, taskUuid: created.uuid }, created);
    return created;
  }

  /** Removes the kept upload of a FAILED import (no retry is possible after). */
  async discardUpload(task: BackgroundTask): Promise<void> {
    const row = await findJob(this.db.kysely, task.uuid);
    if (!row || task.status !== 'FAILED' || row.retried_by) {
      throw new ApiError('CONFLICT', `Task ${task.uuid} keeps no upload: only a FAILED import that was not retried does.`);
    }
    await this.removeUpload(jobFromRow(row));
  }

  /** Whether the upload of a task's import is still on disk, and its size. */
  keptUpload(job: ImportJob): { kept: boolean; bytes: number | null } {
    try {
      return { kept: true, bytes: fs.statSync(uploadPath(this.settings.dataDir, job)).size };
    } catch {
      return { kept: false, bytes: null };
    }
  }

  /**
   * Whether the import of a task is still being handled here. Its task can read COMPLETED or FAILED
   * a moment before: the worker then starts the WAL over (holding the write lock while readers
   * finish) and the upload is removed.
   */
  handles(taskUuid: string): boolean {
    return this.handling.has(taskUuid);
  }

  /** Imports queued or running. */
  get busy(): number {
    return this.pool.busy;
  }

  /** Waits for running batches to commit, then stops the workers. Call before the database closes. */
  async stop(): Promise<void> {
    await Promise.all([this.pool.stop(), this.uploadReaders.stop()]);
  }

  /** Off the event loop: unlinking a file of hundreds of MB takes the file system a while (95 MB: about 0.2 s here). */
  private async removeUpload(job: ImportJob): Promise<void> {
    await fs.promises
      .rm(uploadPath(this.settings.dataDir, job), { force: true })
      .catch((err: unknown) => this.logger.warn({ err, task: job.taskUuid }, 'could not remove an upload'));
  }

  /**
   * Where a worker writes a big answer for a request waiting on it: beside the uploads, so that one
   * a crash of the server left is removed at the next start (recover()).
   */
  private answerFile(): string {
    return path.join(this.uploadsDir, `${randomUUID()}.answer.json`);
  }

  private jobFor(request: Omit<ImportRequest, 'taskType' | 'createdByUuid' | 'metadata'>): Omit<ImportJob, 'taskUuid'> {
    return {
      kind: request.kind,
      organizationUuid: request.organizationUuid,
      uploadFile: request.upload.uploadFile,
      format: request.format,
      source: request.source,
      maxRows: request.mode === 'sync' ? this.settings.syncRowCap : null,
      options: request.options ?? {},
    };
  }

  /**
   * Runs a job, which owns its upload until it ends: the file is removed once the task is
   * COMPLETED or the sync import was refused. A FAILED task (a crashed worker's too) keeps it for
   * a retry (KEPT_UPLOAD_DAYS, or until discarded); a stopped job keeps it, to resume at the next start.
   */
  private async execute(job: ImportJob, created?: BackgroundTask): Promise<PoolOutcome> {
    this.handling.add(job.taskUuid);
    try {
      const task = created ?? (await findTask(this.db.kysely, job.taskUuid));
      if (task) this.running.set(job.taskUuid, task);
      if ((this.keptUpload(job).bytes ?? 0) >= READERS_YIELD_BYTES) this.uploadReaders.endIdle();
      const outcome = await this.pool.run(job);
      this.running.delete(job.taskUuid);
      if (outcome.state === 'completed' || outcome.state === 'rejected') await this.removeUpload(job);
      if (outcome.state === 'failed' && outcome.diskFull) this.onDiskFull();
      if (outcome.state === 'failed' && outcome.internal)
        this.logger.error({ task: job.taskUuid, message: outcome.message }, 'import failed');
      if (outcome.state === 'completed' || outcome.state === 'failed') {
        await publishTaskFinished(this.live, this.db.kysely, job.taskUuid).catch(() => undefined);
      }
      return outcome;
    } finally {
      this.handling.delete(job.taskUuid);
    }
  }
}
