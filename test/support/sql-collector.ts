import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import SQLite from 'better-sqlite3';

const require = createRequire(import.meta.url);
const WORKER_SHIM = new URL('./sql-collector-worker.ts', import.meta.url);
/** The file a worker thread appends its statements to (one JSON string a line). */
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
  /** Every distinct statement prepared so far, by this thread and by the worker threads it started. */
  statements(): string[];
  stop(): void;
}

/**
 * Records every SQL statement prepared from now on: kysely's, SyncQuery's, prepare()'s and raw
 * ones, on this thread and in every worker thread started from now on (each worker is started
 * through a shim that hooks its own better-sqlite3 before loading the real worker module).
 */
export function collectSqlStatements(logFile: string): SqlCollection {
  const seen = new Set<string>();
  const unhook = hookPrepare((sql) => seen.add(sql));
  fs.writeFileSync(logFile, '');
  const threads = require('node:worker_threads') as typeof import('node:worker_threads');
  const Original = threads.Worker;
  threads.Worker = class extends Original {
    constructor(filename: string | URL, options: import('node:worker_threads').WorkerOptions = {}) {
      if (options.eval) {
        super(filename, options);
        return;
      }
      super(WORKER_SHIM, { ...options, argv: [...(options.argv ?? []), String(filename)], env: { ...process.env, [SQL_LOG_ENV]: logFile } });
    }
  };
  syncBuiltinESMExports();
  return {
    statements() {
      const fromWorkers = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as string);
      return [...new Set([...seen, ...fromWorkers])];
    },
    stop() {
      unhook();
      threads.Worker = Original;
      syncBuiltinESMExports();
    },
  };
}
