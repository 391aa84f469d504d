import { ApiError } from '../../http/errors.ts';
import { ImportInputError } from '../errors.ts';
import type { FromWorker, UploadRead, UploadReadResult, WorkerConfig } from '../workers/worker-messages.ts';
import { WorkerProcess } from '../workers/worker-process.ts';

interface Pending {
  resolve(result: UploadReadResult): void;
  reject(error: Error): void;
}

/**
 * Reads uploads before any task starts (a workbook's header, a preview's first rows) in a worker
 * process of its own, so a hostile file costs that process, never the server's event loop or
 * memory, and never waits behind running imports. Started on first use; a new one after it dies.
 */
export class UploadReader {
  private worker: WorkerProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly config: WorkerConfig;

  constructor(config: WorkerConfig) {
    this.config = config;
  }

  /** Starts the worker ahead of a request (a process takes a few hundred milliseconds to start). */
  warm(): void {
    this.worker ??= this.spawn();
  }

  run(request: UploadRead): Promise<UploadReadResult> {
    this.worker ??= this.spawn();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.send({ type: 'read-upload', id, request });
    });
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    worker.terminate();
    await worker.exited;
  }

  private spawn(): WorkerProcess {
    const worker: WorkerProcess = new WorkerProcess(this.config, {
      message: (message: FromWorker) => {
        if (message.type !== 'read') return;
        const pending = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (!pending) return;
        if (message.result) pending.resolve(message.result);
        else if (message.error?.conflict) pending.reject(new ApiError('CONFLICT', message.error.message));
        else
          pending.reject(
            message.error?.input
              ? new ImportInputError(message.error.message, message.error.field)
              : new Error(message.error?.message ?? 'reading the upload failed'),
          );
      },
      exit: (reason) => {
        if (this.worker === worker) this.worker = null;
        const failed = [...this.pending.values()];
        this.pending.clear();
        // The worker checks only this kind of request, so what ended it was one of these files.
        for (const pending of failed)
          pending.reject(
            new ImportInputError(
              reason
                .replace(/^The import worker/, 'The worker that checks uploads')
                .replace(/(;|\.) [Tt]he import is not retried\.?$/, '.'),
            ),
          );
      },
    });
    return worker;
  }
}
