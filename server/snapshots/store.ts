import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { migrations } from '../db/migrations/index.ts';
import { INDEX_INSERTED_SINCE_SQL } from '../qrcodes/search-index.ts';
import { SNAPSHOT_TABLES, type SnapshotTable } from './tables.ts';
import { countLiveWebhooks } from '../webhooks/store.ts';

type Trx = Transaction<Database>;

/** The schema name a snapshot file is attached under while it is written or read. */
const SCHEMA = 'snapshot';
/** Version of the file's layout (its tables and snapshot_meta). */
export const SNAPSHOT_FORMAT = 1;
const ROWID_COLUMN = 'snapshot_rowid';

export interface SnapshotMeta {
  format: number;
  organization_uuid: string;
  created_on: string;
  /** The database's last migration when it was taken. */
  migration: string;
  counts: Record<string, number>;
}

const migrationNames = () => Object.keys(migrations);

/** `text` with each `?` bound to the organization uuid. */
function ofOrganization(text: string, organizationUuid: string): RawBuilder<unknown> {
  const [first = '', ...rest] = text.split('?');
  return rest.reduce<RawBuilder<unknown>>((built, part) => sql`${built}${organizationUuid}${sql.raw(part)}`, sql.raw(first));
}

/** Attaches a snapshot file to the connection (created when missing). Not inside a transaction. */
export async function attachSnapshot(db: Kysely<Database>, file: string): Promise<void> {
  await sql`attach database ${file} as ${sql.raw(SCHEMA)}`.execute(db);
}

export async function detachSnapshot(db: Kysely<Database>): Promise<void> {
  await sql.raw(`detach database ${SCHEMA}`).execute(db);
}

/**
 * Copies every row of the organization (SNAPSHOT_TABLES) into the attached, empty snapshot file,
 * with its meta, inside the caller's transaction. Deliveries are copied as not in flight: an
 * attempt running now is not part of the copy (a pending delivery is sent again after a restore).
 */
export async function writeSnapshot(trx: Trx, organizationUuid: string, createdOn: string): Promise<SnapshotMeta> {
  const counts: Record<string, number> = {};
  for (const table of SNAPSHOT_TABLES) {
    const rowid = table.keepsRowOrder ? `rowid as ${ROWID_COLUMN}, ` : '';
    await sql.raw(`create table ${SCHEMA}.${table.name} as select ${rowid}* from main.${table.name} where 0`).execute(trx);
    const select = `insert into ${SCHEMA}.${table.name} select ${table.keepsRowOrder ? 'rowid, ' : ''}* ${table.rows}`;
    const copied = await ofOrganization(select, organizationUuid).execute(trx);
    counts[table.name] = Number(copied.numAffectedRows ?? 0n);
  }
  counts.webhooks = await countLiveWebhooks(trx, organizationUuid);
  await sql.raw(`update ${SCHEMA}.webhook_deliveries set in_flight = 0, claimed_on = null where in_flight = 1`).execute(trx);
  const meta: SnapshotMeta = {
    format: SNAPSHOT_FORMAT,
    organization_uuid: organizationUuid,
    created_on: createdOn,
    migration: migrationNames().at(-1) ?? '',
    counts,
  };
  await sql.raw(`create table ${SCHEMA}.snapshot_meta (key text primary key, value text not null)`).execute(trx);
  for (const [key, value] of Object.entries(meta)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    await sql`insert into ${sql.raw(`${SCHEMA}.snapshot_meta`)} (key, value) values (${key}, ${text})`.execute(trx);
  }
  return meta;
}

/** The attached file's meta, or null when it is not a snapshot this server can read. */
export async function readSnapshotMeta(db: Kysely<Database>): Promise<SnapshotMeta | null> {
  let rows: { key: string; value: string }[];
  try {
    rows = (await sql.raw<{ key: string; value: string }>(`select key, value from ${SCHEMA}.snapshot_meta`).execute(db)).rows;
  } catch {
    return null;
  }
  const values = new Map(rows.map((row) => [row.key, row.value]));
  const organizationUuid = values.get('organization_uuid');
  const createdOn = values.get('created_on');
  const migration = values.get('migration');
  if (!organizationUuid || !createdOn || migration === undefined) return null;
  return {
    format: Number(values.get('format')),
    organization_uuid: organizationUuid,
    created_on: createdOn,
    migration,
    counts: JSON.parse(values.get('counts') ?? '{}') as Record<string, number>,
  };
}

/** Whether this server's schema can take the snapshot's rows: taken by this version or an older one. */
export function isReadable(meta: SnapshotMeta): boolean {
  return meta.format === SNAPSHOT_FORMAT && (meta.migration === '' || migrationNames().includes(meta.migration));
}

async function columnsOf(db: Kysely<Database>, schema: string, table: string): Promise<string[]> {
  const result = await sql.raw<{ name: string }>(`pragma ${schema}.table_info(${table})`).execute(db);
  return result.rows.map((row) => row.name);
}

/** Inserts one table's rows from the snapshot; columns a later migration added take their defaults. */
async function restoreTable(trx: Trx, table: SnapshotTable): Promise<void> {
  const kept = new Set(await columnsOf(trx, SCHEMA, table.name));
  const columns = (await columnsOf(trx, 'main', table.name)).filter((name) => kept.has(name)).map((name) => `"${name}"`);
  const order = table.keepsRowOrder ? ` order by ${ROWID_COLUMN}` : '';
  const list = columns.join(', ');
  await sql.raw(`insert into main.${table.name} (${list}) select ${list} from ${SCHEMA}.${table.name}${order}`).execute(trx);
}

/**
 * The snapshot's rows that are not the organization's, per table: a row whose organization_uuid
 * is another (or none), or whose parent row (SnapshotTable.parent) is not in the snapshot. A file
 * saved by this server has none; an edited one may, and restoring it would write into another
 * organization.
 */
export async function foreignRows(db: Kysely<Database>, organizationUuid: string): Promise<{ table: string; rows: number }[]> {
  const found: { table: string; rows: number }[] = [];
  for (const table of SNAPSHOT_TABLES) {
    const columns = await columnsOf(db, SCHEMA, table.name);
    const owned: string[] = [];
    if (columns.includes('organization_uuid')) owned.push('organization_uuid is ?');
    const parent = table.parent;
    if (parent) owned.push(`(${parent.column} is null or ${parent.column} in (select ${parent.key} from ${SCHEMA}.${parent.table}))`);
    if (owned.length === 0) continue;
    const count = `select count(*) as n from ${SCHEMA}.${table.name} where not coalesce(${owned.join(' and ')}, 0)`;
    const result = await ofOrganization(count, organizationUuid).execute(db);
    const rows = Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
    if (rows > 0) found.push({ table: table.name, rows });
  }
  return found;
}

/**
 * Inserts every row of the attached snapshot, parents first, inside the caller's transaction (the
 * organization's rows are already deleted). QR codes get new rowids, in their old order, and are
 * added to the search index as an import's are.
 */
export async function restoreSnapshotRows(trx: Trx): Promise<void> {
  for (const table of SNAPSHOT_TABLES) {
    // kind-names: a table (the QR codes' search index is kept up on restore).
    if (table.name !== 'qrcodes') {
      await restoreTable(trx, table);
      continue;
    }
    const last = await sql<{ last: number | null }>`select max(rowid) as last from main.qrcodes`.execute(trx);
    await restoreTable(trx, table);
    await trx.executeQuery(CompiledQuery.raw(INDEX_INSERTED_SINCE_SQL, [(last.rows[0]?.last ?? 0) + 1]));
  }
}

/** The upload files the organization's import jobs name (after a restore: the snapshot's, which stay on disk). */
export async function organizationUploadFiles(trx: Trx, organizationUuid: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('import_jobs')
    .select('upload_file')
    .where('task_uuid', 'in', trx.selectFrom('background_tasks').select('uuid').where('organization_uuid', '=', organizationUuid))
    .execute();
  return rows.map((row) => row.upload_file);
}
