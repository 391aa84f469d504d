import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { moduleUrl } from '../../module-url.ts';
import { ImportInputError } from '../errors.ts';
import type { ImportLimits } from '../limits.ts';
import type { TextEncodingName } from '../text-encodings.ts';
import type { RowHandlers } from '../sources/source.ts';
import type { ImportJob } from '../workers/job-store.ts';
import { type FromReadAhead, type ReadAheadData, SHARED_SLOTS, STOP, TAKEN, VALID } from './checked-wire.ts';
import type { CheckedRow } from './row-check.ts';

/**
 * Reading ahead is opt-in: QR_SANDBOX_READ_AHEAD_MIN_BYTES=N reads every file (not a JSON body) of
 * N bytes or more in a thread beside the writer (0: every file). Measured on a quiet two-core
 * machine it made no CSV faster (the writer bounds the import: QR codes 1.46x against 1.45x the
 * floor at 200,000 rows, appointments 1.08x against 1.07x) and a workbook 5-10% faster, for 40-50 MB
 * more in the worker: a 1,000,000-row workbook's import then peaked at 538 MB over the app's
 * processes, above the 500 MB it must stay under (docs/performance.md).
 */
const MIN_BYTES_SETTING = process.env.QR_SANDBOX_READ_AHEAD_MIN_BYTES;
const READ_AHEAD_MIN_BYTES = MIN_BYTES_SETTING === undefined ? Number.POSITIVE_INFINITY : Number(MIN_BYTES_SETTING);

/** Chunks as the source handed them over, with the rows the thread found valid already checked. */
export interface CheckedRowHandlers extends RowHandlers {
  onRows(rows: unknown[], firstIndex: number, rowNumbers: readonly number[], checked?: readonly (CheckedRow | undefined)[]): void;
}

/** Builds the rows of one shape (its keys, in order) from the values the thread sent. */
interface RowMaker {
  size: number;
  make(raw: unknown[], values: unknown[], at: number, mask: number): Record<string, unknown>;
}

/**
 * A shape's rows are built by an object literal of its keys, made once a shape: assigning keys
 * one by one from a list cost about a microsecond a row (a keyed store that sees every key). A key
 * is written as a JSON string; the thread never sends `__proto__`, which a literal would take as
 * the prototype.
 */
function rowMaker(keys: readonly string[]): RowMaker {
  if (keys.includes('__proto__')) throw new Error('A row shape with a __proto__ key cannot be rebuilt.');
  const fields = keys.map((key, k) => `${JSON.stringify(key)}: mask & ${2 ** k} ? raw[values[at + ${k}]] : values[at + ${k}]`);
  const make = new Function('raw', 'values', 'at', 'mask', `return { ${fields.join(', ')} };`) as RowMaker['make'];
  return { size: keys.length, make };
}

type Arrived = FromReadAhead | { type: 'thread-error'; error: Error } | { type: 'exit'; code: number };

export interface ReadAhead {
  read(handlers: CheckedRowHandlers): Promise<void>;
  fraction(): number;
  encoding(): TextEncodingName | null;
}

/** How long a thread started ahead of its import waits for it (an upload refused, a job that went elsewhere) before it ends. */
const WARM_WAIT_MS = 60_000;

const THREAD_FILE = moduleUrl('./read-ahead-thread.ts', import.meta.url);
const startThread = (kind: string) => new Worker(THREAD_FILE, { workerData: { kind } });

/** The thread started ahead of the next import, if any. */
let warm: { worker: Worker; kind: string; timer: NodeJS.Timeout } | null = null;

/** Ends the thread started ahead (the import will not read ahead, or a warm thread of another kind waits). */
export function dropWarmReadAhead(): void {
  if (!warm) return;
  clearTimeout(warm.timer);
  void warm.worker.terminate();
  warm = null;
}

/**
 * Starts the thread of the next import while its upload arrives (the worker's `warm`): its
 * modules load meanwhile (a few hundred milliseconds the writer would otherwise wait at the start).
 * Not for an upload known to be smaller than a file read ahead.
 */
export function warmReadAhead(kind: string, uploadBytes?: number): void {
  const tooSmall = uploadBytes === undefined ? READ_AHEAD_MIN_BYTES === Number.POSITIVE_INFINITY : uploadBytes < READ_AHEAD_MIN_BYTES;
  if (warm?.kind === kind || tooSmall) return;
  dropWarmReadAhead();
  const worker = startThread(kind);
  worker.unref();
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    if (warm?.worker === worker) {
      clearTimeout(warm.timer);
      warm = null;
    }
  });
  const timer = setTimeout(dropWarmReadAhead, WARM_WAIT_MS);
  timer.unref();
  warm = { worker, kind, timer };
}

/** The warm thread for this kind, or a new one. */
function takeThread(kind: string): Worker {
  if (warm?.kind === kind && warm.worker.threadId !== -1) {
    const { worker, timer } = warm;
    clearTimeout(timer);
    warm = null;
    worker.ref();
    return worker;
  }
  dropWarmReadAhead();
  return startThread(kind);
}

/** Whether an import reads its file in a thread of its own: files (not a JSON body) of READ_AHEAD_MIN_BYTES or more. */
export function readsAhead(file: string, job: ImportJob): boolean {
  return job.format !== 'json' && fs.statSync(file).size >= READ_AHEAD_MIN_BYTES;
}

/**
 * The rows of an upload read, decoded and checked in a thread (read-ahead-thread.ts) while the
 * calling thread writes the previous batch: both cores work on one import. The handlers are
 * called exactly as the source would call them, chunk by chunk in order, the rows the thread
 * found valid with their checked row (any other row is checked again by the caller: the check is
 * pure, so the results are the same). The thread reads at most `maxAhead` rows beyond those the
 * handlers have taken, so memory stays bounded; it stops when a handler throws.
 */
export function readAhead(input: { file: string; job: ImportJob; limits: ImportLimits; skipBelow: number; maxAhead: number }): ReadAhead {
  let fraction = 0;
  let encoding: TextEncodingName | null = null;
  return {
    fraction: () => fraction,
    encoding: () => encoding,
    read(handlers) {
      const shared = new Int32Array(new SharedArrayBuffer(SHARED_SLOTS * Int32Array.BYTES_PER_ELEMENT));
      const data: ReadAheadData = { ...input, shared };
      const worker = takeThread(input.job.kind);
      worker.postMessage(data);
      const shapes: RowMaker[] = [];
      return new Promise<void>((resolve, reject) => {
        let settled = false;
        const settle = (error?: unknown) => {
          if (settled) return;
          settled = true;
          Atomics.store(shared, STOP, 1);
          Atomics.notify(shared, TAKEN);
          void worker.terminate().then(() => (error === undefined ? resolve() : reject(error)));
        };
        const take = (message: Arrived) => {
          if (message.type === 'header') handlers.onHeader(message.cells);
          else if (message.type === 'rows') {
            fraction = message.fraction;
            encoding = message.encoding;
            for (const keys of message.shapes) shapes.push(rowMaker(keys));
            const { rows, tags, values, firstIndex } = message;
            const checked = new Array<CheckedRow | undefined>(rows.length);
            let at = 0;
            for (let i = 0; i < rows.length; i++) {
              if (tags[i] !== VALID) continue;
              const raw = rows[i] as unknown[];
              const shape = shapes[values[at] as number] as RowMaker;
              checked[i] = { index: firstIndex + i, row: shape.make(raw, values, at + 2, values[at + 1] as number), raw };
              at += 2 + shape.size;
            }
            handlers.onRows(rows, firstIndex, message.rowNumbers, checked);
            Atomics.add(shared, TAKEN, rows.length);
            Atomics.notify(shared, TAKEN);
          } else if (message.type === 'end') {
            fraction = message.fraction;
            encoding = message.encoding;
            settle();
          } else if (message.type === 'thread-error') settle(message.error);
          else if (message.type === 'exit') settle(new Error(`The import's file reader stopped unexpectedly (exit code ${message.code}).`));
          else {
            const error = message.input ? new ImportInputError(message.message, message.field) : new Error(message.message);
            if (message.code !== undefined) Object.assign(error, { code: message.code });
            settle(error);
          }
        };
        // One chunk a turn of the event loop: a port delivers up to 1,000 waiting messages in one go,
        // and the worker's other messages (a stop between batches) must get their turn.
        const inbox: Arrived[] = [];
        const takeNext = () => {
          const message = inbox.shift();
          if (message === undefined || settled) return;
          try {
            take(message);
          } catch (error) {
            settle(error);
            return;
          }
          if (inbox.length > 0) setImmediate(takeNext);
        };
        // The thread's end comes after the chunks it sent before it.
        const arrive = (message: Arrived) => {
          if (inbox.push(message) === 1) setImmediate(takeNext);
        };
        worker.on('message', arrive);
        worker.on('error', (error) => arrive({ type: 'thread-error', error }));
        worker.on('exit', (code) => arrive({ type: 'exit', code }));
      });
    },
  };
}
