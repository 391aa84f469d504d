import type SQLite from 'better-sqlite3';
import { importKinds, isImportKindId } from '../kinds.ts';

const WORKER_BUSY_TIMEOUT_MS = 30_000;
/**
 * An import worker's page cache in MB until it runs a job: the smallest a kind asks for. Each kind's
 * own size is its entry's `workerCacheMb` (QR_SANDBOX_WORKER_CACHE_MB for measuring, all kinds).
 * Memory outside the V8 heap, held until the worker ends.
 */
const DEFAULT_CACHE_MB = 8;
const cacheMb = (kind: string | null) =>
  Number(
    process.env.QR_SANDBOX_WORKER_CACHE_MB ??
      (kind !== null && isImportKindId(kind) ? importKinds[kind].workerCacheMb : undefined) ??
      DEFAULT_CACHE_MB,
  );

/** The settings an import worker's connection adds to the server's (the benchmark's floor uses them too). */
export function configureWorkerConnection(sqlite: SQLite.Database): void {
  // Writers queue for SQLite's one write lock; an import waits for its turn rather than fail (engine.ts waits again after this).
  sqlite.pragma(`busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  sizeCacheFor(sqlite, null);
}

/** Sizes the page cache for an import of this kind (a smaller size frees what the cache holds beyond it). */
export function sizeCacheFor(sqlite: SQLite.Database, kind: string | null): void {
  sqlite.pragma(`cache_size = -${cacheMb(kind) * 1024}`);
}
