import type SQLite from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { Db } from '../db/database.ts';
import { paramName } from '../db/prepared.ts';

export { param } from '../db/prepared.ts';

/**
 * Kysely-built queries run synchronously on the better-sqlite3 handle, so an import batch can
 * run inside one synchronous transaction (`db.sqlite.transaction`). A query is built and compiled
 * once with named placeholders (`param('name')`) and then run many times with values.
 */
export type SyncDb = Pick<Db, 'kysely' | 'sqlite'>;

export class SyncQuery<R> {
  private readonly statement: SQLite.Statement<unknown[]>;
  /** Per compiled parameter: the placeholder name, or null for a value fixed when building. */
  private readonly names: (string | null)[];
  private readonly fixed: readonly unknown[];

  constructor(db: SyncDb, query: Compilable<R>) {
    const compiled = query.compile();
    this.statement = db.sqlite.prepare<unknown[]>(compiled.sql);
    this.fixed = compiled.parameters;
    this.names = compiled.parameters.map(paramName);
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

  /** Runs an insert; answers the new row's rowid. */
  insert(values: Record<string, unknown> = {}): number | bigint {
    return this.statement.run(...this.bind(values)).lastInsertRowid;
  }

  /**
   * The values in compiled order, in one array reused by every call and spread into it (an array
   * argument's elements cost better-sqlite3 slower V8 calls); the call is synchronous, so nothing
   * else sees the array in between.
   */
  private readonly args: unknown[] = [];

  private bind(values: Record<string, unknown>): unknown[] {
    const args = this.args;
    const names = this.names;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name === null || name === undefined) {
        args[i] = this.fixed[i];
        continue;
      }
      const value = values[name];
      if (value === undefined) throw new Error(`No value for query parameter ${name}`);
      args[i] = typeof value === 'boolean' ? Number(value) : value;
    }
    return args;
  }
}
