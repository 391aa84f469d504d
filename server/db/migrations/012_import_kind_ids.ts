import { sql, type Kysely } from 'kysely';

/** Import kinds were named by their module path and export; they are named by a stable id now (server/imports/kinds.ts). */
const MODULE_PATHS: Record<string, string> = {
  qrcodes: 'qrcodes/import-kind.ts#qrCodeImportKind',
  appointments: 'appointments/import-kind.ts#appointmentImportKind',
};
const IDS: Record<string, string> = Object.fromEntries(Object.entries(MODULE_PATHS).map(([id, modulePath]) => [modulePath, id]));

const PAGE = 500;

/**
 * Renames the kind of every job, walking the table a page at a time in primary-key order: each
 * statement uses the key's index, and no page holds more than PAGE rows. Unknown names stay as
 * they are (their task fails with a message naming the kind when it runs).
 */
async function renameKinds(db: Kysely<unknown>, renamed: Record<string, string>): Promise<void> {
  let after = '';
  for (;;) {
    const page = await sql<{
      task_uuid: string;
      kind: string;
    }>`select task_uuid, kind from import_jobs where task_uuid > ${after} order by task_uuid limit ${PAGE}`.execute(db);
    for (const row of page.rows) {
      const kind = renamed[row.kind];
      if (kind) await sql`update import_jobs set kind = ${kind} where task_uuid = ${row.task_uuid}`.execute(db);
    }
    const last = page.rows.at(-1);
    if (!last || page.rows.length < PAGE) return;
    after = last.task_uuid;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await renameKinds(db, IDS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await renameKinds(db, MODULE_PATHS);
}
