import fs from 'node:fs';
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
 * Records every SQL statement prepared from now on: kysely's, SyncQuery's, prepare()'s and raw
 * ones, in this process and in every worker process started from now on (NODE_OPTIONS makes each
 * one load the hook before the worker module).
 */
export function collectSqlStatements(logFile: string): SqlCollection {
  const seen = new Set<string>();
  const unhook = hookPrepare((sql) => seen.add(sql));
  fs.writeFileSync(logFile, '');
  const saved = { nodeOptions: process.env.NODE_OPTIONS, logFile: process.env[SQL_LOG_ENV] };
  process.env.NODE_OPTIONS = [saved.nodeOptions, `--import=${WORKER_HOOK.href}`].filter(Boolean).join(' ');
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
      restore('NODE_OPTIONS', saved.nodeOptions);
      restore(SQL_LOG_ENV, saved.logFile);
    },
  };
}
