import { openConnection, type Db } from '../../db/database.ts';
import { TASK_SEARCH_SHADOW } from '../../tasks/search.ts';
import type { ShadowExtra } from '../kind.ts';

/** The engine's own tables: a dry run starts them empty and keeps its task, job and excluded rows there. */
const ENGINE_TABLES = ['background_tasks', 'import_jobs', 'import_excluded_rows'] as const;

interface SchemaRow {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  sql: string | null;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A connection on which an import runs exactly as it would, but writes nothing: the database is
 * opened read-only (SQLite refuses any write to it), and each table the import writes is shadowed
 * by a temporary table of the same definition and indexes, holding the organization's rows.
 * Unqualified names resolve to the temporary tables first, so the engine's and the kind's own
 * statements read and write them unchanged; everything else (services, settings) is read live.
 * The temporary tables vanish when the connection closes.
 */
export function openScratchConnection(
  dataDir: string,
  organizationUuid: string,
  writtenTables: readonly string[],
  extras: readonly ShadowExtra[] = [],
): Db {
  const db = openConnection(dataDir, { readonly: true });
  try {
    // Temporary tables cannot reference the real parents; the import checks references itself.
    db.sqlite.pragma('foreign_keys = OFF');
    const empty = new Set<string>(ENGINE_TABLES);
    const shadows = [TASK_SEARCH_SHADOW, ...extras];
    for (const table of new Set([...ENGINE_TABLES, ...writtenTables]))
      shadow(
        db,
        table,
        empty.has(table) ? null : organizationUuid,
        shadows.find((extra) => extra.table === table),
      );
    return db;
  } catch (error) {
    void db.close();
    throw error;
  }
}

function shadow(db: Db, table: string, organizationUuid: string | null, extra: ShadowExtra | undefined): void {
  const schema = db.sqlite
    .prepare<[string], SchemaRow>('select type, name, sql from main.sqlite_master where tbl_name = ? and sql is not null')
    .all(table);
  const definition = schema.find((row) => row.type === 'table');
  if (!definition?.sql) throw new Error(`Cannot shadow table ${table}: it does not exist.`);
  if (schema.some((row) => row.type === 'trigger' && !extra?.skippedTriggers.has(row.name)))
    throw new Error(`Cannot shadow table ${table}: it has triggers, which a dry run would skip.`);
  db.sqlite.exec(definition.sql.replace(/^CREATE TABLE/i, 'CREATE TEMP TABLE'));
  if (extra?.sql) db.sqlite.exec(extra.sql);
  if (organizationUuid !== null && hasOrganizationColumn(db, table)) {
    db.sqlite
      .prepare(`insert into temp.${quote(table)} select * from main.${quote(table)} where organization_uuid = ?`)
      .run(organizationUuid);
  }
  for (const index of schema) {
    if (index.type !== 'index' || !index.sql) continue;
    const temporary = index.sql.replace(
      /^CREATE (UNIQUE )?INDEX (IF NOT EXISTS )?("(?:[^"]|"")+"|\S+)/i,
      (_all, unique: string | undefined, ifNotExists: string | undefined, name: string) =>
        `CREATE ${unique ?? ''}INDEX ${ifNotExists ?? ''}temp.${name}`,
    );
    db.sqlite.exec(temporary);
  }
}

function hasOrganizationColumn(db: Db, table: string): boolean {
  return db.sqlite
    .prepare<[string], { name: string }>('select name from pragma_table_info(?)')
    .all(table)
    .some((c) => c.name === 'organization_uuid');
}
