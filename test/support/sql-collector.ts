import fs from 'node:fs';
import { type Transferable, Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const WORKER_HOOK = new URL('./sql-collector-worker.ts', import.meta.url);
/** The file a worker process appends its statements to (one JSON string a line). */
export const SQL_LOG_ENV = 'QR_SANDBOX_TEST_SQL_LOG';

/** Calls `record` with the text of every statement this thread prepares; answers the undo. */
export function hookPrepare(record: (sql: string) => void): () => void {
  const original = SQLite.prototype.prepare;
  SQLite.prototype.prepare = function prepare(this: SQLite.Database, source: string) {
    record(source);
    return original.call(this, source);
  } as typeof original;
  return () => {
    SQLite.prototype.prepare = original;
  };
}

export interface SqlCollection {
  /** Every distinct statement prepared so far, by this process and by the worker processes it started. */
  statements(): string[];
  stop(): void;
}

/**
 * Calls `record` with the SQL of every message this thread sends a worker thread with an `sql`
 * text (the count thread's statements): a thread takes no `--import` hook started at run time.
 */
function hookThreadStatements(record: (sql: string) => void): () => void {
  const original = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function postMessage(this: Worker, value: unknown, transfer?: readonly Transferable[]) {
    const sql = (value as { sql?: unknown } | null)?.sql;
    if (typeof sql === 'string') record(sql);
    return original.call(this, value, transfer);
  } as typeof original;
  return () => {
    Worker.prototype.postMessage = original;
  };
}

/**
 * Records every SQL statement prepared from now on: kysely's, SyncQuery's, prepare()'s and raw
 * ones, in this process and in every worker process started from now on (NODE_OPTIONS makes each
 * one load the hook before the worker module), and the statements sent to worker threads.
 */
export function collectSqlStatements(logFile: string): SqlCollection {
  const seen = new Set<string>();
  const unhook = hookPrepare((sql) => seen.add(sql));
  fs.writeFileSync(logFile, '');
  const saved = { nodeOptions: process.env.NODE_OPTIONS, logFile: process.env[SQL_LOG_ENV] };
  process.env.NODE_OPTIONS = [saved.nodeOptions, `--import=${WORKER_HOOK.href}`].filter(Boolean).join(' ');
  const unhookThreads = hookThreadStatements((sql) => seen.add(sql));
  process.env[SQL_LOG_ENV] = logFile;
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  return {
    statements() {
      const fromWorkers = fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string);
      return [...new Set([...seen, ...fromWorkers])];
    },
    stop() {
      unhook();
      unhookThreads();
      restore('NODE_OPTIONS', saved.nodeOptions);
      restore(SQL_LOG_ENV, saved.logFile);
    },
  };
}
