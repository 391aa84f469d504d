import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { DATABASE_VERSION_SQL } from './version.ts';

interface Cached {
  version: string;
  /** A promise while it is being counted: the same count asked meanwhile waits for it. */
  count: number | Promise<number>;
}

/** Counts a statement elsewhere than on the caller's connection (CountThread.count). */
export type Counter = (sql: string, parameters: readonly unknown[]) => Promise<number>;

/** Per database handle: count query (SQL and parameters) -> its last answer and the database version it was read at. */
const caches = new WeakMap<object, Map<string, Cached>>();
const MAX_ENTRIES = 500;

/**
 * `select count(*)` of a list, answered again without counting while the database is unchanged.
 * Counting a million rows of one organization takes tens of milliseconds, every page of a list
 * needs the total, and paging through a list changes nothing. Unchanged means: no commit by any
 * other connection (PRAGMA data_version: the import workers') and no change by this one
 * (total_changes()). The version is read before counting, so a commit in between only makes
 * the next call count again. The least recently used count goes when the cache is full.
 *
 * `elsewhere` counts on another connection (a thread's: counts that can take long). It reads the
 * last commit, at or after the version read here (that read waits for any transaction open on
 * this connection). When it fails, this connection counts.
 */
export async function cachedCount<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, TB, O>,
  elsewhere?: Counter,
): Promise<number> {
  const counting = query.select((eb) => eb.fn.countAll<number>().as('n'));
  const compiled = counting.compile();
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  const versionRow = await sql.raw<{ version: string }>(DATABASE_VERSION_SQL).execute(db);
  const version = versionRow.rows[0]?.version ?? '';
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const hit = cache.get(key);
  if (hit && hit.version === version) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.count;
  }
  const here = async () => Number(((await counting.executeTakeFirstOrThrow()) as { n: number | bigint }).n);
  const count = elsewhere ? elsewhere(compiled.sql, compiled.parameters).catch(here) : here();
  const entry: Cached = { version, count };
  cache.delete(key);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, entry);
  try {
    entry.count = await count;
    return entry.count;
  } catch (error) {
    if (cache.get(key) === entry) cache.delete(key);
    throw error;
  }
}
