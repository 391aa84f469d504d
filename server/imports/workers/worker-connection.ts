import type SQLite from 'better-sqlite3';
import type { ImportKindId } from '../schemas.ts';

const WORKER_BUSY_TIMEOUT_MS = 30_000;
/**
 * An import worker's page cache by kind, in MB (QR_SANDBOX_WORKER_CACHE_MB for measuring, all
 * kinds). QR code rows append (uuid7 keys, rising rowids; the name-and-location index is read
 * only for keys the Bloom filter may hold): 1M of them took the same time with 4 MB as with 16 or
 * 64 MB, and 8 MB instead of 32 left the worker 24 MB smaller at 200,000 rows. Appointments write
 * five indexes at random places: there 32 MB kept the pages a batch touches instead of reading
 * them again and spilling them to the WAL twice (200,000 rows: 12.3 s of worker CPU instead of
 * 14.1 s; docs/performance.md). Memory outside the V8 heap, held until the worker ends.
 */
const CACHE_MB: Record<ImportKindId, number> = { qrcodes: 8, appointments: 32 };
const cacheMb = (kind: string) => Number(process.env.QR_SANDBOX_WORKER_CACHE_MB ?? CACHE_MB[kind as ImportKindId] ?? CACHE_MB.qrcodes);

/** The settings an import worker's connection adds to the server's (the benchmark's floor uses them too). */
export function configureWorkerConnection(sqlite: SQLite.Database): void {
  // Writers queue for SQLite's one write lock; an import waits for its turn rather than fail (engine.ts waits again after this).
  sqlite.pragma(`busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  sizeCacheFor(sqlite, 'qrcodes');
}

/** Sizes the page cache for an import of this kind (a smaller size frees what the cache holds beyond it). */
export function sizeCacheFor(sqlite: SQLite.Database, kind: string): void {
  sqlite.pragma(`cache_size = -${cacheMb(kind) * 1024}`);
}
