import type SQLite from 'better-sqlite3';
import type { CompiledQuery, Compilable } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * Runs kysely-built queries synchronously on the better-sqlite3 handle, so an import batch can
 * run inside one synchronous transaction (`db.sqlite.transaction`). Statements are prepared once
 * per SQL text and connection.
 */
export type SyncDb = Pick<Db, 'kysely' | 'sqlite'>;
type Statement = SQLite.Statement<unknown[]>;

const prepared = new WeakMap<Db['sqlite'], Map<string, Statement>>();

function statement(db: SyncDb, compiled: CompiledQuery): Statement {
  let byText = prepared.get(db.sqlite);
  if (!byText) {
    byText = new Map();
    prepared.set(db.sqlite, byText);
  }
  let stmt = byText.get(compiled.sql);
  if (!stmt) {
    stmt = db.sqlite.prepare<unknown[]>(compiled.sql);
    byText.set(compiled.sql, stmt);
  }
  return stmt;
}

export function selectAll<R>(db: SyncDb, query: Compilable<R>): R[] {
  const compiled = query.compile();
  return statement(db, compiled).all(...(compiled.parameters as unknown[])) as R[];
}

export function selectFirst<R>(db: SyncDb, query: Compilable<R>): R | undefined {
  const compiled = query.compile();
  return statement(db, compiled).get(...(compiled.parameters as unknown[])) as R | undefined;
}

/** Runs an insert, update or delete; answers the number of rows changed. */
export function execute(db: SyncDb, query: Compilable<unknown>): number {
  const compiled = query.compile();
  return statement(db, compiled).run(...(compiled.parameters as unknown[])).changes;
}
