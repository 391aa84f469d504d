import type SQLite from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * Kysely-built queries run synchronously on the better-sqlite3 handle, so an import batch can
 * run inside one synchronous transaction (`db.sqlite.transaction`). A query is built and compiled
 * once with named placeholders (`param('name')`) and then run many times with values.
 */
export type SyncDb = Pick<Db, 'kysely' | 'sqlite'>;

const MARK = '\u0000qrs-param:';

/** A named placeholder for a value of a prepared query; typed as the value it stands for. */
export function param<T>(name: string): T {
  return `${MARK}${name}` as unknown as T;
}

export class SyncQuery<R> {
  private readonly statement: SQLite.Statement<unknown[]>;
  /** Per compiled parameter: the placeholder name, or null for a value fixed when building. */
  private readonly names: (string | null)[];
  private readonly fixed: readonly unknown[];

  constructor(db: SyncDb, query: Compilable<R>) {
    const compiled = query.compile();
    this.statement = db.sqlite.prepare<unknown[]>(compiled.sql);
    this.fixed = compiled.parameters;
    this.names = compiled.parameters.map((value) => (typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : null));
  }

  get(values: Record<string, unknown> = {}): R | undefined {
    return this.statement.get(...this.bind(values)) as R | undefined;
  }

  all(values: Record<string, unknown> = {}): R[] {
    return this.statement.all(...this.bind(values)) as R[];
  }

  /** Runs an insert, update or delete; answers the number of rows changed. */
  run(values: Record<string, unknown> = {}): number {
    return this.statement.run(...this.bind(values)).changes;
  }

  private bind(values: Record<string, unknown>): unknown[] {
    return this.names.map((name, i) => {
      if (name === null) return this.fixed[i];
      const value = values[name];
      if (value === undefined) throw new Error(`No value for query parameter ${name}`);
      return typeof value === 'boolean' ? Number(value) : value;
    });
  }
}
