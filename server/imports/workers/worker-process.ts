import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleUrl } from '../../module-url.ts';
import { describeLimit } from '../limits.ts';
import type { FromWorker, ToWorker, WorkerConfig } from './worker-messages.ts';

const WORKER_FILE = fileURLToPath(moduleUrl('./worker.ts', import.meta.url));
/**
 * Young generation of a worker: 8 MB. Rows are written as they are parsed, so most of a row's
 * garbage dies young; at 4 MB it was promoted anyway (1M QR code rows: 12.9 s of worker CPU at 4 MB,
 * 11.5 s at 8, 16 or 32 MB; peak RSS 185, 199, 210 and 249 MB; docs/performance.md).
 */
const WORKER_SEMI_SPACE_MB = 8;
/**
 * An upload reader's young generation: 1 MB. A reader reads a header, a file's first rows or a
 * draft's changed rows, little garbage, and sits idle between reads: with 8 MB an idle reader
 * kept 10 MB more (110 against 101 MB), beside the import that follows its header read.
 */
export const READER_SEMI_SPACE_MB = 1;
/**
 * No allocation-site pretenuring in a worker. V8 sees the parser's per-chunk arrays (a chunk's
 * rows) survive every young collection, so it allocates them in the old generation from then on;
 * a dead chunk there keeps its young rows alive (old-to-new references) until the next full
 * collection, so every row was promoted: 500 MB promoted and 29 full collections per 1M QR code
 * rows, 170 MB and 12 without pretenuring.
 */
const WORKER_V8_FLAGS = ['--no-allocation-site-pretenuring'];
/**
 * glibc's malloc arenas in a worker: one per thread by default (up to 8 per core), each keeping
 * its own freed memory. Two kept a 200,000-row QR code import's worker 18 MB smaller and an idle
 * upload reader 23 MB (SQLite's page cache, better-sqlite3 and Node's threads all allocate
 * there). MALLOC_ARENA_MAX set by the user wins.
 */
const MALLOC_ARENAS = '2';
/**
 * Blocks of 256 KB or more are mapped on their own and given back to the system when freed. By
 * default glibc raises this threshold to the size of the largest block freed (a workbook's 1 MB
 * chunks of unpacked XML, a CSV's read buffers), and the freed blocks then stay in the process:
 * 11 to 13 MB of a 200,000-row import's worker (docs/performance.md). The server sets the same
 * (bin/qr-sandbox.mjs). MALLOC_MMAP_THRESHOLD_ set by the user wins.
 */
const MALLOC_MMAP_THRESHOLD = '262144';
const STDERR_TAIL = 4096;
/**
 * Node's cache of compiled modules for worker processes: a worker compiles the import's modules
 * (type-stripped TypeScript) at each start, about half a second of the first import after the
 * server starts; from the cache it takes about half that. NODE_COMPILE_CACHE set by the user wins.
 */
const COMPILE_CACHE = path.join(os.tmpdir(), 'qr-sandbox-compile-cache');
const OUT_OF_MEMORY = /heap limit|heap out of memory|Allocation failed/i;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Workers never outlive the server: on its exit they are killed (on a kill -9 they see the IPC channel close and exit themselves). */
function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/**
 * An import worker: a child process (not a thread), so that running out of memory, which V8
 * cannot always survive inside a thread, ends only the worker. Its heap is capped by
 * `--max-old-space-size` (serve --import-worker-memory-mb); stderr is kept to tell why it died.
 */
export class WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  private stderr = '';
  private outOfMemory = false;
  private readonly config: WorkerConfig;

  constructor(
    config: WorkerConfig,
    handlers: { message(message: FromWorker): void; exit(reason: string, outOfMemory: boolean): void },
    semiSpaceMb = WORKER_SEMI_SPACE_MB,
  ) {
    this.config = config;
    killAllOnExit();
    this.child = fork(config.entry ?? WORKER_FILE, [], {
      execArgv: [`--max-old-space-size=${config.limits.workerMemoryMb}`, `--max-semi-space-size=${semiSpaceMb}`, ...WORKER_V8_FLAGS],
      env: {
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        MALLOC_ARENA_MAX: MALLOC_ARENAS,
        MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD,
        ...process.env,
        ELECTRON_RUN_AS_NODE: '1',
        QR_SANDBOX_WORKER_CONFIG: JSON.stringify(config),
      },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    running.add(this.child);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      const text = this.stderr + chunk.toString();
      // V8's out-of-memory line comes before its native stack trace, which can be longer than the tail kept.
      if (OUT_OF_MEMORY.test(text)) this.outOfMemory = true;
      this.stderr = text.slice(-STDERR_TAIL);
    });
    this.child.on('message', (message: FromWorker) => handlers.message(message));
    this.exited = new Promise((resolve) => {
      let ended = false;
      const end = (reason: string) => {
        if (ended) return;
        ended = true;
        running.delete(this.child);
        handlers.exit(reason, this.outOfMemory);
        resolve();
      };
      this.child.once('exit', (code, signal) => end(this.exitReason(code, signal)));
      // A process that could not be started may not emit exit; without this listener the error would throw in the server.
      this.child.on('error', (error) => {
        if (this.child.pid === undefined) end(`The import worker could not be started (${error.message}).`);
      });
    });
  }

  send(message: ToWorker): void {
    if (this.child.connected) this.child.send(message);
  }

  terminate(): void {
    this.child.kill('SIGKILL');
  }

  /** Why the worker ended, in words for a task's error_message. */
  private exitReason(code: number | null, signal: NodeJS.Signals | null): string {
    if (this.outOfMemory) {
      return `The import worker ran out of memory: its heap is limited to ${describeLimit(this.config.limits, 'workerMemoryMb')}. A cell or row of this file is too large to read: split the file or save it as CSV, or start the server with a larger --import-worker-memory-mb. The import is not retried.`;
    }
    const how = signal ? `was ended by signal ${signal}` : `exited with code ${code}`;
    const last = deathLine(this.stderr);
    return `The import worker stopped unexpectedly (it ${how}${last ? `: ${last.slice(0, 300)}` : ''}); the import is not retried.`;
  }
}

/** The line of a dead worker's stderr that says why: an uncaught error's own line, not the stack or Node's version line after it. */
export function deathLine(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at ') && !/^Node\.js v\d/.test(line));
  return lines.findLast((line) => /^\w*(Error|Exception)\b/.test(line)) ?? lines.at(-1);
}
