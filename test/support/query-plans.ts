import type SQLite from 'better-sqlite3';

/** Tables that belong to no organization and stay small: a scan of them is fine. */
const GLOBAL_TABLES = new Set([
  'organizations',
  'kysely_migration',
  'kysely_migration_lock',
  'sqlite_sequence',
  'sqlite_master',
  'sqlite_schema',
]);
/**
 * An organization's hand-made catalogs (tens of rows, created one by one by an admin): reading all
 * of one organization's rows to find one is fine. A full scan of them (every organization) is not.
 */
const CATALOG_TABLES = new Set([
  'webhooks',
  'services',
  'service_categories',
  'import_handlers',
  'inboxes',
  'api_keys',
  'organization_settings',
]);

export interface PlanFinding {
  sql: string;
  /** EXPLAIN QUERY PLAN's lines; empty for statements without a plan (pragma, DDL, begin). */
  plan: string[];
  /** Why the plan is unacceptable, or null. */
  problem: string | null;
  /** Why the statement could not be explained, or null. */
  error: string | null;
}

const isQuery = (sql: string) => /^\s*(select|insert|update|delete|with|replace)\b/i.test(sql);

/** The plan with every parameter bound to null (the plan does not depend on the values: no ANALYZE statistics). */
function explain(db: SQLite.Database, sql: string): string[] {
  const statement = db.prepare(`explain query plan ${sql}`);
  // better-sqlite3 tells how many parameters a statement takes only by refusing too few or too many.
  let low = 0;
  let high = 32766;
  while (low <= high) {
    const count = Math.floor((low + high) / 2);
    try {
      return (statement.all(...new Array<null>(count).fill(null)) as { detail: string }[]).map((row) => row.detail);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/too few parameter/i.test(message)) low = count + 1;
      else if (/too many parameter/i.test(message)) high = count - 1;
      else throw error;
    }
  }
  throw new Error('could not find the number of parameters');
}

/** alias -> table for `"table" as "alias"` in the statement (kysely's quoting). */
function aliases(sql: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of sql.matchAll(/"?(\w+)"?\s+as\s+"?(\w+)"?/gi)) found.set(match[2] ?? '', match[1] ?? '');
  return found;
}

/**
 * A statement that looks up particular rows (an equality on a column other than the organization
 * or the deleted mark) rather than listing, counting or copying all of them.
 */
function isLookup(sql: string): boolean {
  if (/\boffset\b|\bcount\(|^\s*insert\b/i.test(sql)) return false;
  const where = sql
    .split(/\bwhere\b/i)
    .slice(1)
    .join(' where ');
  return [...where.matchAll(/"(\w+)"\s*=\s*\?/g)].some((m) => !['organization_uuid', 'deleted_on'].includes(m[1] ?? ''));
}

/** A text search (LIKE) must read a full-text index's matches or a bounded range, not all of an organization's rows. */
const isTextSearch = (sql: string) => /\blike\b/i.test(sql);

function planProblem(sql: string, plan: string[], tables: Set<string>, partialIndexes: Set<string>): string | null {
  const named = aliases(sql);
  for (const line of plan) {
    const organizationRows = /^SEARCH (\S+) .*\(organization_uuid=\?(?: AND deleted_on=\?)?\)$/.exec(line);
    if (organizationRows && isTextSearch(sql)) {
      const table = named.get(organizationRows[1] ?? '') ?? organizationRows[1] ?? '';
      if (tables.has(table) && !GLOBAL_TABLES.has(table) && !CATALOG_TABLES.has(table))
        return `${line}: a text search that reads every row of the organization (table ${table})`;
    }
    const organizationOnly = /^SEARCH (\S+) .*\(organization_uuid=\?\)$/.exec(line);
    if (organizationOnly && isLookup(sql)) {
      const table = named.get(organizationOnly[1] ?? '') ?? organizationOnly[1] ?? '';
      if (tables.has(table) && !GLOBAL_TABLES.has(table) && !CATALOG_TABLES.has(table))
        return `${line}: a lookup that reads every row of the organization (table ${table})`;
    }
    const match = /^SCAN (\S+)(.*)$/.exec(line);
    if (!match) continue;
    const name = (match[1] ?? '').replace(/^(main|temp)\./, '');
    const table = named.get(name) ?? name;
    if (!tables.has(table) || GLOBAL_TABLES.has(table)) continue;
    const rest = match[2] ?? '';
    // A full-text index (FTS5) reads only the rows its MATCH finds.
    if (/^ VIRTUAL TABLE INDEX \d+:\S*M/.test(rest)) continue;
    // A scan of a partial index reads only the rows the index was made for (e.g. due deliveries).
    const index = /USING (?:COVERING )?INDEX (\S+)/.exec(rest)?.[1];
    if (index && partialIndexes.has(index)) continue;
    return `${line} (table ${table})`;
  }
  return null;
}

/**
 * EXPLAIN QUERY PLAN of every statement: on `main` (a migrated database), or on `scratch` (a
 * dry run's connection with its temporary shadow tables) when the statement names temp tables.
 * A statement that scans a table of an organization (every table but the global ones) is a
 * problem: as the organization grows, it reads every row.
 */
export function explainAll(statements: string[], main: SQLite.Database, scratch: SQLite.Database): PlanFinding[] {
  const tables = new Set(
    main.prepare<[], { name: string }>("select name from sqlite_master where type = 'table'").pluck().all() as unknown as string[],
  );
  const partialIndexes = new Set(
    main
      .prepare<[], { name: string }>("select name from sqlite_master where type = 'index' and sql like '% where %'")
      .pluck()
      .all() as unknown as string[],
  );
  return statements.map((sql) => {
    if (!isQuery(sql)) return { sql, plan: [], problem: null, error: null };
    try {
      const plan = explain(/\btemp\./i.test(sql) ? scratch : main, sql);
      return { sql, plan, problem: planProblem(sql, plan, tables, partialIndexes), error: null };
    } catch (error) {
      return { sql, plan: [], problem: null, error: error instanceof Error ? error.message : String(error) };
    }
  });
}
