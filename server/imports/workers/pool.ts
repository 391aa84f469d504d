import type { Logger } from 'pino';
import { lockReleased } from '../../db/database.ts';
import type { EngineOutcome } from '../engine/engine.ts';
import type { ImportJob } from './job-store.ts';
import type { ImportKindId } from '../schemas.ts';
import type { FromWorker, WorkerConfig } from './worker-messages.ts';
import { WorkerProcess } from './worker-process.ts';

const STOP_TIMEOUT_MS = 30_000;

interface Slot {
  worker: WorkerProcess;
  job: ImportJob | null;
  finish: ((outcome: EngineOutcome) => void) | null;
  exited: Promise<void>;
}

interface Queued {
  job: ImportJob;
  finish: (outcome: EngineOutcome) => void;
}

export interface PoolOptions {
  size: number;
  config: WorkerConfig;
  logger: Logger;
  onProgress(taskUuid: string, progress: number): void;
  /** A worker died (out of memory, crash, exit) while running this job: the task must be failed by the caller. */
  onCrash(job: ImportJob, message: string): Promise<void>;
}

/**
 * Import worker processes, started on demand up to `size`, each running one job at a time.
 * Jobs wait in a queue (their tasks are PENDING). stop() lets each worker finish its current
 * batch and close its connection; queued jobs stay PENDING in the database for the next start.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private stopping = false;
  private readonly options: PoolOptions;

  constructor(options: PoolOptions) {
    this.options = options;
  }

  run(job: ImportJob): Promise<EngineOutcome> {
    if (this.stopping) return Promise.resolve({ state: 'stopped' });
    return new Promise((finish) => {
      this.queue.push({ job, finish });
      this.dispatch();
    });
  }

  /** Starts a worker ahead of a job (when none is idle) and has it load the kind, so the job starts at once. */
  warm(kind: ImportKindId, uploadBytes?: number): void {
    if (this.stopping) return;
    let slot = this.slots.find((s) => !s.job);
    if (!slot && this.slots.length < this.options.size) slot = this.spawn();
    slot?.worker.send({ type: 'warm', kind, ...(uploadBytes === undefined ? {} : { uploadBytes }) });
  }

  /** Jobs queued or running. */
  get busy(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const queued of this.queue.splice(0)) queued.finish({ state: 'stopped' });
    for (const slot of this.slots) slot.worker.send({ type: 'stop' });
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
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.options.size) return;
        slot = this.spawn();
      }
      const next = this.queue.shift();
      if (!next) return;
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
        else if (message.type === 'done') this.release(slot, message.outcome);
      },
      exit: (reason, outOfMemory) => {
        const index = this.slots.indexOf(slot);
        if (index >= 0) this.slots.splice(index, 1);
        if (slot.job && !this.stopping) {
          this.options.logger.error({ task: slot.job.taskUuid, reason }, 'import worker died');
          // Out of memory is the file's doing (a sync import answers 400); any other death is ours (500).
          void this.crashed(slot, reason, !outOfMemory);
        }
        this.dispatch();
      },
    });
    const slot: Slot = { worker, job: null, finish: null, exited: worker.exited };
    this.slots.push(slot);
    return slot;
  }

  private release(slot: Slot, outcome: EngineOutcome): void {
    const finish = slot.finish;
    slot.job = null;
    slot.finish = null;
    finish?.(outcome);
    this.dispatch();
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
