import type SQLite from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { Db } from './database.ts';

const MARK = '\u0000param:';

/** A named placeholder for a query that is compiled once and run many times: `.where('uuid', '=', param('uuid'))`. */
export function param<T = string>(name: string): T {
  return `${MARK}${name}` as T;
}

/** The name of a compiled parameter made by `param()`, or null for a value fixed when building. */
export function paramName(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : null;
}

export interface Prepared<P extends string> {
  run(args: Record<P, unknown>): SQLite.RunResult;
  get<R>(args: Record<P, unknown>): R | undefined;
  all<R>(args: Record<P, unknown>): R[];
}

/** A value written into a statement's SQL instead of bound on every run. */
export type SqlLiteral = string | number | null;

/**
 * Compiles a kysely query once and runs it through better-sqlite3 synchronously, binding
 * named `param()` values in the compiled order. For hot loops and synchronous transactions
 * (workers), where kysely's async execution would cost a promise per row.
 *
 * `fixed` names params whose value stays the same for the statement's life (an import's
 * organization and time): they are written into the SQL as literals. Binding a text costs
 * better-sqlite3 about 0.1 µs per run (a UTF-8 copy), a tenth of a QR code import's insert.
 */
export function prepare<P extends string>(
  sqlite: SQLite.Database,
  query: Compilable,
  fixed: Readonly<Record<string, SqlLiteral>> = {},
): Prepared<P> {
  const compiled = query.compile();
  const names = compiled.parameters.map((value) => {
    const name = paramName(value);
    if (name === null) {
      throw new Error(`prepare(): every parameter must be a param(); got ${JSON.stringify(value)} in ${compiled.sql}`);
    }
    return name;
  });
  const order = names.filter((name) => !Object.hasOwn(fixed, name)) as P[];
  const statement = sqlite.prepare(withLiterals(compiled.sql, names, fixed));
  // One array for every call (its elements are spread into the call: better-sqlite3 reads an
  // array argument's elements through slower V8 calls); calls are synchronous: no garbage per row.
  const values: unknown[] = new Array(order.length);
  const bind = binder<P>(order, values);
  return {
    run: (args) => statement.run(...bind(args)),
    get: <R>(args: Record<P, unknown>) => statement.get(...bind(args)) as R | undefined,
    all: <R>(args: Record<P, unknown>) => statement.all(...bind(args)) as R[],
  };
}

/** A value a variant binds rather than writes into its SQL. */
const BOUND = Symbol('bound');
/** The longest text written into a variant's SQL: longer ones are bound (a repeated value is short). */
const LONGEST_LITERAL = 100;

/** Which params of a statement with variants are written in when they repeat. */
export interface RepeatedParams<P extends string> {
  /** Written in as their value: few distinct values (a QR code's type, state, country, time zone). */
  values?: readonly P[];
  /** Written in only when null: usually empty, and distinct when given (a label). */
  nulls?: readonly P[];
  /** Beyond this many variants a new set of values is bound. */
  maxVariants?: number;
}

/**
 * `prepare()` for a statement run for many rows that repeat some of its values: one statement for
 * each set of those values, made on first use, with them written into its SQL as literals. Binding
 * a text costs better-sqlite3 about 0.2 µs a run (a UTF-8 copy, then SQLite's own copy), a QR code
 * row's type, state, country, precision and time zone a microsecond together. Stores exactly what
 * the bound statement stores.
 */
export function prepareRepeated<P extends string>(
  sqlite: SQLite.Database,
  query: Compilable,
  fixed: Readonly<Record<string, SqlLiteral>>,
  repeated: RepeatedParams<P>,
): Prepared<P> {
  const valueParams = repeated.values ?? [];
  const params = [...valueParams, ...(repeated.nulls ?? [])];
  if (params.length === 0) return prepare<P>(sqlite, query, fixed);
  const maxVariants = repeated.maxVariants ?? 64;
  // A variant is keyed by each param's literal (a short text, or null) or BOUND, one level of maps a
  // param: no key is built per row, and the maps hold only the variants made.
  const valueKey = (value: unknown) =>
    typeof value === 'string'
      ? value.length <= LONGEST_LITERAL && !value.includes('\u0000')
        ? value
        : BOUND
      : value === null || value === undefined
        ? null
        : BOUND;
  const nullKey = (value: unknown) => (value === null || value === undefined ? null : BOUND);
  const keyOf = (args: Record<P, unknown>, k: number) => (k < valueParams.length ? valueKey : nullKey)(args[params[k] as P]);
  const root = new Map<unknown, unknown>();
  const bound = prepare<P>(sqlite, query, fixed);
  let variants = 0;
  /** A row whose set of values has no variant yet: one is made and filed, up to maxVariants; past them the row is bound. */
  const miss = (args: Record<P, unknown>): Prepared<P> => {
    if (variants >= maxVariants) return bound;
    const keys = params.map((_, k) => keyOf(args, k));
    const literals: Record<string, SqlLiteral> = { ...fixed };
    keys.forEach((key, k) => {
      if (key !== BOUND) literals[params[k] as string] = key as SqlLiteral;
    });
    const statement = prepare<P>(sqlite, query, literals);
    variants++;
    let level = root;
    for (const key of keys.slice(0, -1)) {
      if (!level.has(key)) level.set(key, new Map());
      level = level.get(key) as Map<unknown, unknown>;
    }
    level.set(keys[keys.length - 1], statement);
    return statement;
  };
  // Compiled to plain property reads V8 caches, as binder() is: a loop reading by a changing key cost 0.3 µs a row.
  const steps = params.map(
    (name, k) =>
      `node = node.get(${k < valueParams.length ? 'valueKey' : 'nullKey'}(args[${JSON.stringify(name)}])); if (node === undefined) return miss(args);`,
  );
  const pick = new Function(
    'root',
    'valueKey',
    'nullKey',
    'miss',
    `return (args) => {\nlet node = root;\n${steps.join('\n')}\nreturn node;\n};`,
  )(root, valueKey, nullKey, miss) as (args: Record<P, unknown>) => Prepared<P>;
  return {
    run: (args) => pick(args).run(args),
    get: <R>(args: Record<P, unknown>) => pick(args).get<R>(args),
    all: <R>(args: Record<P, unknown>) => pick(args).all<R>(args),
  };
}

/** The SQL with each `?` of a fixed param replaced by its value as a literal. */
function withLiterals(sql: string, names: readonly string[], fixed: Readonly<Record<string, SqlLiteral>>): string {
  if (!names.some((name) => Object.hasOwn(fixed, name))) return sql;
  const pieces = sql.split('?');
  // Only the placeholders may hold a `?`: a literal in the query's own text would shift them.
  if (pieces.length !== names.length + 1) throw new Error(`prepare(): cannot write fixed values into ${sql}`);
  return pieces.reduce((text, piece, i) => {
    const name = names[i - 1] as string;
    return `${text}${Object.hasOwn(fixed, name) ? sqlLiteral(fixed[name] ?? null) : '?'}${piece}`;
  });
}

function sqlLiteral(value: SqlLiteral): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`prepare(): ${value} has no SQL literal`);
    return String(value);
  }
  if (value.includes('\u0000')) throw new Error('prepare(): a fixed text cannot hold NUL');
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Copies the named arguments into `values` in the compiled order, compiled to one plain property
 * read per parameter (`args["uuid"]`) that V8 caches: for the 20 parameters of a QR code import
 * row this takes 0.03 µs instead of 0.16 µs with a loop reading by a key that changes each step.
 */
function binder<P extends string>(order: readonly P[], values: unknown[]): (args: Record<P, unknown>) => unknown[] {
  const body = order.map((name, i) => `values[${i}] = toSqlite(args[${JSON.stringify(name)}]);`).join('\n');
  return new Function('toSqlite', 'values', `return (args) => {\n${body}\nreturn values;\n};`)(toSqlite, values) as (
    args: Record<P, unknown>,
  ) => unknown[];
}

function toSqlite(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** One `make(db)` per database, made on first use: for a module's prepared statements. */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
