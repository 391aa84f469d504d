import fs from 'node:fs';
import { ApiError } from '../../http/errors.ts';
import { JsonFile } from '../../http/json-file.ts';
import { ImportInputError } from '../errors.ts';
import type { FromWorker, UploadRead, UploadReadResult, WorkerConfig } from '../workers/worker-messages.ts';
import { READER_SEMI_SPACE_MB, WorkerProcess } from '../workers/worker-process.ts';

/** What a read gives: its result, or a big preview written to a file (the caller sends or discards it). */
export type ReadAnswer = UploadReadResult | JsonFile;

interface Pending {
  id: number;
  /** Where the read may write its answer (a preview's `answerFile`). */
  answerFile?: string;
  /** When the worker began on the file itself (its kind and geocoder loaded). */
  readingAt?: number;
  resolve(result: ReadAnswer): void;
  reject(error: Error): void;
}

/** Why a reader process ended, said of the read it was doing (WorkerProcess words it for an import). */
function readerDeath(reason: string): string {
  return reason.replace(/^The import worker/, 'The worker that reads uploads').replace(/(;|\.) [Tt]he import is not retried\.?$/, '.');
}

/**
 * One upload reader: a worker process (workers/worker.ts) that reads one upload at a time, so
 * that whatever a file does to it (out of memory, a crash, a read that never ends) is that read's
 * alone. upload-readers.ts decides which read it does next and when one has taken too long.
 */
export class UploadReader {
  private readonly worker: WorkerProcess;
  private current: Pending | null = null;
  private nextId = 1;
  private ending = false;
  /** Answer files of reads abandoned while the process may still write them: removed once it has ended. */
  private readonly strayAnswers: string[] = [];
  /** The organization whose upload it read last. */
  lastOrganization: string | undefined;
  readonly exited: Promise<void>;

  constructor(config: WorkerConfig, handlers: { reading(reader: UploadReader): void; exit(reader: UploadReader): void }) {
    this.worker = new WorkerProcess(
      config,
      {
        message: (message: FromWorker) => {
          if (message.type === 'reading' && message.id === this.current?.id) {
            this.current.readingAt = Date.now();
            handlers.reading(this);
          }
          if (message.type !== 'read' || message.id !== this.current?.id) return;
          const pending = this.current;
          this.current = null;
          if (message.answer) pending.resolve(new JsonFile(message.answer));
          else if (message.result) pending.resolve(message.result);
          else if (message.error?.conflict) pending.reject(new ApiError('CONFLICT', message.error.message));
          else
            pending.reject(
              message.error?.input
                ? new ImportInputError(message.error.message, message.error.field)
                : new Error(message.error?.message ?? 'reading the upload failed'),
            );
        },
        exit: (reason) => {
          this.ending = true;
          const pending = this.current;
          this.current = null;
          for (const file of [...this.strayAnswers, pending?.answerFile]) {
            if (file) void fs.promises.rm(file, { force: true }).catch(() => undefined);
          }
          // Only this read was in the process, so what ended it was this file.
          pending?.reject(new ImportInputError(readerDeath(reason)));
          handlers.exit(this);
        },
      },
      READER_SEMI_SPACE_MB,
    );
    this.exited = this.worker.exited;
  }

  /** When the read in progress began on the file itself: its process started, its kind and geocoder loaded. */
  get readingSince(): number | undefined {
    return this.current?.readingAt;
  }

  /** Ready for a read: not reading one, not ending. */
  get idle(): boolean {
    return this.current === null && !this.ending;
  }

  read(request: UploadRead): Promise<ReadAnswer> {
    if (!this.idle) throw new Error('an upload reader reads one upload at a time, and none once it is ending');
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.current = { id, ...('answerFile' in request ? { answerFile: request.answerFile } : {}), resolve, reject };
      this.worker.send({ type: 'read-upload', id, request });
    });
  }

  /** Ends the read in progress with `error`, and the process with it: a read stuck in a file's content stops only when its process is killed. */
  abandon(error: Error): void {
    const pending = this.current;
    this.current = null;
    if (pending?.answerFile) this.strayAnswers.push(pending.answerFile);
    pending?.reject(error);
    this.terminate();
  }

  terminate(): void {
    this.ending = true;
    this.worker.terminate();
  }
}
