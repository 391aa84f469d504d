import { perDatabase } from './prepared.ts';
import type { Db } from './database.ts';

/**
 * One text that changes whenever the database may have: `PRAGMA data_version` moves when another
 * connection (an import worker, the CLI) commits, `total_changes()` when this connection writes.
 * Caches of read answers keep an answer only while this text is the same.
 */
export const DATABASE_VERSION_SQL = "select (select data_version from pragma_data_version) || ':' || total_changes() as version";

/** The two halves of DATABASE_VERSION_SQL as statements of their own: cheaper than the one query, asked on every request. */
const statementsOf = perDatabase((db) => ({
  dataVersion: db.sqlite.prepare<[], number>('pragma data_version').pluck(),
  totalChanges: db.sqlite.prepare<[], number>('select total_changes()').pluck(),
}));

/** DATABASE_VERSION_SQL's text now, on the server's connection (call it outside a transaction: see outsideTransaction). */
export function databaseVersion(db: Db): string {
  const s = statementsOf(db);
  return `${s.dataVersion.get()}:${s.totalChanges.get()}`;
}

/**
 * Answers by key, kept while the database version is the one they were computed at: a call with
 * another version forgets them all. The caller reads the version before computing an answer, so
 * a change in between only makes the next call compute it again. Bounded: starts over when full.
 */
export class VersionedAnswers<T> {
  private readonly answers = new Map<string, T>();
  private at = '';
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  get(version: string, key: string): T | undefined {
    if (version !== this.at) {
      this.answers.clear();
      this.at = version;
      return undefined;
    }
    return this.answers.get(key);
  }

  /** Keeps `answer` as of `version` (dropped at once when the cache has moved on to another version). */
  set(version: string, key: string, answer: T): void {
    if (version !== this.at) return;
    if (this.answers.size >= this.max) this.answers.clear();
    this.answers.set(key, answer);
  }

  remember(version: string, key: string, compute: () => T): T {
    const known = this.get(version, key);
    if (known !== undefined) return known;
    const answer = compute();
    this.set(version, key, answer);
    return answer;
  }
}
