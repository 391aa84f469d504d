import fs from 'node:fs';
import type { Logger } from 'pino';
import { lockReleased } from '../../db/database.ts';
import { JsonFile } from '../../http/json-file.ts';
import type { EngineOutcome } from '../engine/engine.ts';
import type { ImportJob } from './job-store.ts';
import type { ImportKindId } from '../schemas.ts';
import type { FromWorker, WorkerConfig } from './worker-messages.ts';
import { WorkerProcess } from './worker-process.ts';

const STOP_TIMEOUT_MS = 30_000;

/** How a job ended: a job with an `answerFile` may have its results there, for the caller to send or discard. */
export type PoolOutcome = EngineOutcome | { state: 'completed'; results: JsonFile };

interface Slot {
  worker: WorkerProcess;
  job: ImportJob | null;
  finish: ((outcome: PoolOutcome) => void) | null;
  exited: Promise<void>;
  /** Ends the worker once it has had nothing to do for `idleMs`. */
  idleTimer: NodeJS.Timeout | undefined;
  /** Asked to stop for being idle: it takes no job, and another starts in its place if one comes. */
  retiring: boolean;
}

interface Queued {
  job: ImportJob;
  finish: (outcome: PoolOutcome) => void;
}

export interface PoolOptions {
  size: number;
  /** A worker with no job ends after this long (serve --worker-idle-seconds); the next job starts another. */
  idleMs: number;
  config: WorkerConfig;
  logger: Logger;
  onProgress(taskUuid: string, progress: number): void;
  /** A worker died (out of memory, crash, exit) while running this job: the task must be failed by the caller. */
  onCrash(job: ImportJob, message: string): Promise<void>;
}

/**
 * Import worker processes, started on demand up to `size`, each running one job at a time, each
 * ending after `idleMs` without a job (an idle worker holds 100 to 180 MB). Jobs wait in a queue
 * (their tasks are PENDING). stop() lets each worker finish its current batch and close its
 * connection; queued jobs stay PENDING in the database for the next start.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private stopping = false;
  private readonly options: PoolOptions;

  constructor(options: PoolOptions) {
    this.options = options;
  }

  run(job: ImportJob): Promise<PoolOutcome> {
    if (this.stopping) return Promise.resolve({ state: 'stopped' });
    return new Promise((finish) => {
      this.queue.push({ job, finish });
      this.dispatch();
    });
  }

  /** Starts a worker ahead of a job (when none is idle) and has it load the kind, so the job starts at once. */
  warm(kind: ImportKindId, uploadBytes?: number): void {
    if (this.stopping) return;
    let slot = this.idleSlot();
    if (!slot && this.notRetiring() < this.options.size) slot = this.spawn();
    if (!slot) return;
    slot.worker.send({ type: 'warm', kind, ...(uploadBytes === undefined ? {} : { uploadBytes }) });
    this.becameIdle(slot);
  }

  /** Jobs queued or running. */
  get busy(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const queued of this.queue.splice(0)) queued.finish({ state: 'stopped' });
    for (const slot of this.slots) {
      clearTimeout(slot.idleTimer);
      // One ending for being idle was told to stop already.
      if (!slot.retiring) slot.worker.send({ type: 'stop' });
    }
    const all = Promise.all(this.slots.map((s) => s.exited));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.options.logger.warn('import workers did not stop in time; terminating them');
        for (const slot of this.slots) slot.worker.terminate();
        resolve();
      }, STOP_TIMEOUT_MS);
    });
    await Promise.race([all, timeout]);
    clearTimeout(timer);
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.stopping) {
      let slot = this.idleSlot();
      if (!slot) {
        if (this.notRetiring() >= this.options.size) return;
        slot = this.spawn();
      }
      const next = this.queue.shift();
      if (!next) return;
      clearTimeout(slot.idleTimer);
      slot.job = next.job;
      slot.finish = next.finish;
      slot.worker.send({ type: 'run', job: next.job });
    }
  }

  private spawn(): Slot {
    const worker = new WorkerProcess(this.options.config, {
      message: (message: FromWorker) => {
        if (message.type === 'progress') this.options.onProgress(message.taskUuid, message.progress);
        else if (message.type === 'committed') lockReleased();
        else if (message.type === 'done')
          this.release(slot, 'answer' in message ? { state: 'completed', results: new JsonFile(message.answer) } : message.outcome);
      },
      exit: (reason, outOfMemory) => {
        clearTimeout(slot.idleTimer);
        const index = this.slots.indexOf(slot);
        if (index >= 0) this.slots.splice(index, 1);
        // The process is gone, so whatever it wrote of its answer stays as it is: removed.
        if (slot.job?.answerFile) void fs.promises.rm(slot.job.answerFile, { force: true }).catch(() => undefined);
        if (slot.job && !this.stopping) {
          this.options.logger.error({ task: slot.job.taskUuid, reason }, 'import worker died');
          // Out of memory is the file's doing (a sync import answers 400); any other death is ours (500).
          void this.crashed(slot, reason, !outOfMemory);
        }
        this.dispatch();
      },
    });
    const slot: Slot = { worker, job: null, finish: null, exited: worker.exited, idleTimer: undefined, retiring: false };
    this.slots.push(slot);
    return slot;
  }

  /** A worker ready for a job. */
  private idleSlot(): Slot | undefined {
    return this.slots.find((s) => !s.job && !s.retiring);
  }

  /** Workers that count against `size`: those ending for being idle do not (they exit in milliseconds). */
  private notRetiring(): number {
    return this.slots.filter((s) => !s.retiring).length;
  }

  /** The worker ends (its connection closed first) unless a job comes within `idleMs`. */
  private becameIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.job || this.stopping) return;
      slot.retiring = true;
      slot.worker.send({ type: 'stop' });
    }, this.options.idleMs);
    slot.idleTimer.unref();
  }

  private release(slot: Slot, outcome: PoolOutcome): void {
    const finish = slot.finish;
    slot.job = null;
    slot.finish = null;
    finish?.(outcome);
    this.dispatch();
    if (!slot.job) this.becameIdle(slot);
  }

  private async crashed(slot: Slot, message: string, internal: boolean): Promise<void> {
    const job = slot.job;
    if (!job) return;
    const finish = slot.finish;
    slot.job = null;
    slot.finish = null;
    await this.options.onCrash(job, message).catch((err: unknown) => this.options.logger.error({ err }, 'could not fail crashed import'));
    finish?.({ state: 'failed', message, internal });
  }
}
