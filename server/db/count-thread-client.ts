import { Worker } from 'node:worker_threads';
import { moduleUrl } from '../module-url.ts';
import type { CountAnswer, CountRequest, CountThreadData } from './count-thread-messages.ts';

interface Waiting {
  resolve(count: number): void;
  reject(error: Error): void;
}

/**
 * Counts off the server's thread: one worker thread (count-thread.ts), started at the first
 * count, kept, and started again at the next count after it died. It never keeps the process
 * alive. Counts queue in it one after the other; a count it cannot answer (an SQL error, the
 * thread's end) rejects, and the caller counts on its own connection instead.
 */
export class CountThread {
  private readonly file: string;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private stopped = false;

  constructor(file: string) {
    this.file = file;
  }

  count(sql: string, parameters: readonly unknown[]): Promise<number> {
    if (this.stopped) return Promise.reject(new Error('the count thread is stopped'));
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters } satisfies CountRequest);
    });
  }

  /** The running thread's id, if one runs (tests). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  /** Ends the thread as a crash would: what waits for it rejects, the next count starts another (tests). */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  /** Ends the thread for good (the server stops). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker?.terminate();
  }

  private start(): Worker {
    const data: CountThreadData = { file: this.file };
    const worker = new Worker(moduleUrl('./count-thread.ts', import.meta.url), { workerData: data });
    worker.unref();
    let failure: Error | undefined;
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('message', (answer: CountAnswer) => {
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      if ('count' in answer) waiting.resolve(answer.count);
      else waiting.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    });
    worker.once('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const error = new Error(`the count thread ended (exit code ${code})`, { cause: failure });
      // Each thread answers in order; what is left waiting was sent to this one.
      for (const [id, waiting] of this.waiting) {
        this.waiting.delete(id);
        waiting.reject(error);
      }
    });
    return worker;
  }
}
