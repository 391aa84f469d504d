import type SQLite from 'better-sqlite3';

const WORKER_BUSY_TIMEOUT_MS = 30_000;
/**
 * An import worker's page cache, in MB (QR_SANDBOX_WORKER_CACHE_MB for measuring). QR code rows
 * with references append (uuid7 keys, rising references): 1M of them took the same time with 4 MB
 * as with 16 or 64 MB. Appointments write five indexes at random places: there 32 MB kept the pages
 * a batch touches instead of reading them again and spilling them to the WAL twice (200,000 rows:
 * 12.3 s of worker CPU instead of 14.1 s; docs/performance.md). Memory outside the V8 heap.
 */
export const WORKER_CACHE_MB = Number(process.env.QR_SANDBOX_WORKER_CACHE_MB ?? 32);

/** The settings an import worker's connection adds to the server's (the benchmark's floor uses them too). */
export function configureWorkerConnection(sqlite: SQLite.Database): void {
  // Writers queue for SQLite's one write lock; an import waits for its turn rather than fail (engine.ts waits again after this).
  sqlite.pragma(`busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  sqlite.pragma(`cache_size = -${WORKER_CACHE_MB * 1024}`);
}
