import { Worker } from 'node:worker_threads';
import type { FromParseThread, ParseThreadInput } from './parse-messages.ts';

const PARSE_THREAD_URL = new URL('./parse-thread.ts', import.meta.url);
const PARSE_HEAP_MB = 64;

export interface ParsedRows {
  /** The parse thread's messages in order; ends after `end` or `error`. */
  messages: AsyncIterable<FromParseThread>;
  /** Call after committing a `rows` chunk: lets the parse thread read ahead again. */
  committed(): void;
  /** Stops the parse thread (also when it is waiting). */
  stop(): Promise<void>;
}

/** Starts the parse thread of one import run (see parse-thread.ts). */
export function parseInThread(input: Omit<ParseThreadInput, 'shared'>): ParsedRows {
  const shared = new SharedArrayBuffer(8);
  const flags = new Int32Array(shared);
  const worker = new Worker(PARSE_THREAD_URL, { workerData: { ...input, shared }, resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB } });
  const queue: FromParseThread[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  const push = (message: FromParseThread) => {
    if (finished) return;
    if (message.type === 'end' || message.type === 'error') finished = true;
    queue.push(message);
    wake?.();
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ type: 'error', input: false, message: `the parser stopped: ${error.message}` }));
  worker.on('exit', (code) => push({ type: 'error', input: false, message: `the parser exited early (code ${code})` }));

  async function* messages(): AsyncGenerator<FromParseThread> {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        if (next.type === 'end' || next.type === 'error') return;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  }

  return {
    messages: messages(),
    committed() {
      Atomics.sub(flags, 0, 1);
      Atomics.notify(flags, 0);
    },
    async stop() {
      finished = true;
      Atomics.store(flags, 1, 1);
      Atomics.notify(flags, 0);
      await worker.terminate();
    },
  };
}
