import type SQLite from 'better-sqlite3';

const WORKER_BUSY_TIMEOUT_MS = 30_000;
/**
 * An import worker's page cache. QR code rows with references append (uuid7 keys, rising
 * references): 1M of them took the same time with 4 MB as with 16 or 64 MB. Rows matched by name
 * and location, and appointments, write five indexes at random places: there a larger cache keeps
 * the pages a batch touches instead of reading them again and spilling them to the WAL twice.
 */
export const WORKER_CACHE_MB = Number(process.env.QR_SANDBOX_WORKER_CACHE_MB ?? 4);

/** The settings an import worker's connection adds to the server's (the benchmark's floor uses them too). */
export function configureWorkerConnection(sqlite: SQLite.Database): void {
  // Writers queue for SQLite's one write lock; an import waits for its turn rather than fail (engine.ts waits again after this).
  sqlite.pragma(`busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  sqlite.pragma(`cache_size = -${WORKER_CACHE_MB * 1024}`);
}
