import assert from 'node:assert/strict';
import { importKindIdsInWords } from '../../server/imports/kinds.ts';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { databasePath } from '../../server/db/database.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import type { Database } from '../../server/db/schema.ts';
import { ensureDemoOrganization } from '../../server/orgs/bootstrap.ts';
import { startImportTestServer, waitForTask } from '../support/imports.ts';
import { tempDataDir } from '../support/server.ts';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';

const dataDir = tempDataDir();
const APPOINTMENT_IMPORTS = 1100;
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/**
 * A database as version 011 left it: every migration up to 011_query_indexes, nothing after but
 * 013_catalog_version (independent of 012; today's code that seeds the demo organization below needs it).
 */
async function databaseAt011(): Promise<{ kysely: Kysely<Database>; sqlite: SQLite.Database }> {
  const upTo011 = Object.fromEntries(
    Object.entries(migrations).filter(([name]) => name <= '011_query_indexes' || name === '013_catalog_version'),
  );
  assert.equal(Object.keys(upTo011).length, 12);
  const sqlite = new SQLite(databasePath(dataDir));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => upTo011 } }).migrateToLatest();
  assert.equal(error, undefined);
  return { kysely: db, sqlite };
}

/** A task and its import job as the server at 011 stored them: the kind named by its module path. */
async function oldImport(
  db: Kysely<Database>,
  org: string,
  input: { uuid: string; kind: string; status: 'PENDING' | 'COMPLETED'; csv?: string; excluded?: number },
): Promise<void> {
  const now = new Date().toISOString();
  const uploadFile = path.join('uploads', `${input.uuid}.upload`);
  if (input.csv !== undefined) fs.writeFileSync(path.join(dataDir, uploadFile), input.csv);
  await db
    .insertInto('background_tasks')
    .values({
      uuid: input.uuid,
      task_id: `task-${input.uuid}`,
      task_type: 'QR_IMPORT',
      status: input.status,
      progress: input.status === 'COMPLETED' ? 100 : 0,
      created_by_uuid: 'an-old-key',
      metadata: null,
      organization_uuid: org,
      results: input.status === 'COMPLETED' ? JSON.stringify({ inserted: 0, updated: 0, excluded: input.excluded }) : null,
      error_message: null,
      created_on: now,
      updated_on: now,
    })
    .execute();
  await db
    .insertInto('import_jobs')
    .values({
      task_uuid: input.uuid,
      kind: input.kind,
      organization_uuid: org,
      upload_file: uploadFile,
      format: 'csv',
      options: JSON.stringify({ source: 'file', maxRows: null, kindOptions: {} }),
      headers: input.status === 'COMPLETED' ? JSON.stringify(['name', 'location']) : null,
      excluded_count: input.excluded ?? 0,
      created_on: now,
      updated_on: now,
    })
    .execute();
}

describe('import kinds stored by module path before migration 012', () => {
  it('are renamed to their ids: an old interrupted import resumes, an old error report downloads, an unknown kind fails its task only', async () => {
    const opened = await databaseAt011();
    const old = opened.kysely;
    const credentials = await ensureDemoOrganization(opened, dataDir);
    const org = credentials?.organization_uuid ?? '';
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true, mode: 0o700 });
    const rows = TINY_SUBURBS.slice(0, 3).map(
      ([suburb, state, postcode], i) => `Old site ${i},"${i + 1} High Street, ${suburb} ${state} ${postcode}"`,
    );
    await oldImport(old, org, {
      uuid: 'old-pending-qr-import',
      kind: 'qrcodes/import-kind.ts#qrCodeImportKind',
      status: 'PENDING',
      csv: `name,location\r\n${rows.join('\r\n')}\r\n`,
    });
    await oldImport(old, org, {
      uuid: 'old-finished-qr-import',
      kind: 'qrcodes/import-kind.ts#qrCodeImportKind',
      status: 'COMPLETED',
      excluded: 1,
    });
    await old
      .insertInto('import_excluded_rows')
      .values({
        task_uuid: 'old-finished-qr-import',
        row_index: 0,
        error: 'location: could not be located',
        echo: JSON.stringify({ name: 'Lost', location: 'Nowhere' }),
        cells: JSON.stringify(['Lost', 'Nowhere']),
      })
      .execute();
    // More jobs than the migration reads in one page (500).
    await old.transaction().execute(async (trx) => {
      for (let i = 0; i < APPOINTMENT_IMPORTS; i++) {
        await oldImport(trx, org, {
          uuid: `old-appointment-import-${String(i).padStart(4, '0')}`,
          kind: 'appointments/import-kind.ts#appointmentImportKind',
          status: 'COMPLETED',
          excluded: 0,
        });
      }
    });
    await oldImport(old, org, {
      uuid: 'kind-from-elsewhere',
      kind: 'parcels/import-kind.ts#parcelImportKind',
      status: 'PENDING',
      csv: 'name\r\nx\r\n',
    });
    await old.destroy();

    const server = await startImportTestServer({ dataDir });
    try {
      const stored = await server.ctx.db.kysely.selectFrom('import_jobs').select(['task_uuid', 'kind']).orderBy('task_uuid').execute();
      assert.deepEqual(stored, [
        { task_uuid: 'kind-from-elsewhere', kind: 'parcels/import-kind.ts#parcelImportKind' },
        ...Array.from({ length: APPOINTMENT_IMPORTS }, (_, i) => ({
          task_uuid: `old-appointment-import-${String(i).padStart(4, '0')}`,
          kind: 'appointments',
        })),
        { task_uuid: 'old-finished-qr-import', kind: 'qrcodes' },
        { task_uuid: 'old-pending-qr-import', kind: 'qrcodes' },
      ]);

      const resumed = await waitForTask(server, 'old-pending-qr-import', 2400);
      assert.equal(resumed.status, 'COMPLETED', resumed.error_message ?? '');
      assert.equal(resumed.results?.inserted, 3);
      const list = (await (await server.request(`/api/qrcodes?organization_uuid=${org}&search=Old%20site`)).json()) as { total: number };
      assert.equal(list.total, 3, 'the resumed import wrote its rows');

      const report = await server.request('/api/qrcodes/bulk/old-finished-qr-import/errors');
      assert.equal(report.status, 200, 'the error report of an import finished before 012 is still found as a QR code import');
      const lines = (await report.text()).trim().split(/\r?\n/);
      assert.equal(lines[1], 'Lost,Nowhere,2,location: could not be located');

      const unknown = await waitForTask(server, 'kind-from-elsewhere', 2400);
      assert.equal(unknown.status, 'FAILED');
      assert.equal(
        unknown.error_message,
        `The import could not start: Unknown import kind "parcels/import-kind.ts#parcelImportKind": this server imports ${importKindIdsInWords('and')}.`,
      );
      const health = await server.request('/api/health');
      assert.equal(health.status, 200, 'the server goes on serving');
    } finally {
      await server.stop();
    }
  });
});
