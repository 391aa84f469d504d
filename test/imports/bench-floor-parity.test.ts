import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

// The bench's data with the tiny test geocoder's suburbs (read as bench/qr-data.ts loads).
process.env.BENCH_GEOCODER = 'tiny';
const { appointmentFloor, qrCodeFloor } = await import('../../bench/floor.ts');
const { writeFieldQrCsv } = await import('../../bench/qr-data.ts');
const { writeAppointmentBenchCsv } = await import('../../bench/appointment-data.ts');

const ROWS = 300;

/**
 * What an import writes beyond its rows: its task (with the task's search index and id counter) and
 * its job (the resume point of crash safety). The floor is the rows' required work, not these.
 */
const BOOKKEEPING = new Set(['background_tasks', 'sqlite_sequence', 'task_search_data', 'task_search_idx', 'import_jobs']);

/** Columns the geocoder fills (the floor writes one fixed place where the file does not say): compared as present or absent. */
const GEOCODED = new Set(['suburb', 'state', 'postcode', 'country', 'latitude', 'longitude', 'precision', 'timezone_name']);
/** An appointment's times, which the floor writes at one fixed offset instead of the place's time zone: compared by their form. */
const ZONED = new Set(['start_date_time', 'end_date_time', 'start_utc', 'end_utc']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Row = Record<string, unknown>;

/** Every table's rows (FTS5 shadow tables included, as SQLite stores them), uuids and write times masked, sorted. */
function contents(file: string): Map<string, string[]> {
  const db = new SQLite(file, { readonly: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and sql not like 'create virtual%' order by name")
      .pluck()
      .all() as string[];
    const uuids = new Map<string, string>();
    const mask = (column: string, value: unknown) => {
      if (GEOCODED.has(column)) return value === null ? null : '<geocoded>';
      if (ZONED.has(column) && typeof value === 'string') return value.replace(/\d/g, '0');
      if (typeof value === 'string' && UUID.test(value)) {
        // The same uuid masked the same way wherever it appears, so references between rows still compare.
        if (!uuids.has(value)) uuids.set(value, `<uuid ${uuids.size}>`);
        return '<uuid>';
      }
      if (typeof value === 'string' && TIME.test(value)) return '<time>';
      if (Buffer.isBuffer(value)) return value.toString('base64');
      return value;
    };
    return new Map(
      tables.map((table) => {
        const rows = db.prepare(`select * from "${table}"`).all() as Row[];
        return [table, rows.map((row) => JSON.stringify(Object.entries(row).map(([c, v]) => [c, mask(c, v)]))).sort()];
      }),
    );
  } finally {
    db.close();
  }
}

function schema(file: string): string[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return db
      .prepare('select type, name, tbl_name, sql from sqlite_master order by name')
      .all()
      .map((r) => JSON.stringify(r));
  } finally {
    db.close();
  }
}

/** Tables whose rows differ from the template's. */
function changed(before: Map<string, string[]>, now: Map<string, string[]>): string[] {
  return [...now.keys()].filter((table) => JSON.stringify(before.get(table)) !== JSON.stringify(now.get(table))).sort();
}

describe("the bench's floor does the import's required work (bench/floor.ts)", () => {
  let server: TestServer;
  let dir: string;
  /** The database as the server created it, before any import; then the floor's copy, which only the floor writes. */
  let template: string;
  let floored: string;
  before(async () => {
    dir = tempDataDir('qr-parity-');
    server = await startTestServer();
    template = path.join(dir, 'template.db');
    floored = path.join(dir, 'floor.db');
    const db = new SQLite(path.join(server.dataDir, DATABASE_FILE), { readonly: true });
    await db.backup(template);
    await db.backup(floored);
    db.close();
  });
  after(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The import of `file` on the real server and the floor into its own copy of the same database, one after the other case. */
  async function both(
    file: string,
    endpoint: string,
    floor: (dbFile: string, file: string, organizationUuid: string) => Promise<{ rows: number }>,
  ) {
    const form = new FormData();
    form.set('organization_uuid', server.organizationUuid);
    form.set('file', await fs.openAsBlob(file), path.basename(file));
    const res = await server.request(`${endpoint}?processing_mode=sync`, { method: 'POST', body: form });
    const body = (await res.json()) as { excluded?: number; excluded_appointments?: unknown[] };
    assert.equal(res.status, 200, JSON.stringify(body).slice(0, 500));
    assert.equal(body.excluded ?? body.excluded_appointments?.length, 0, 'every row imported');
    const { rows } = await floor(floored, file, server.organizationUuid);
    assert.equal(rows, ROWS);
  }

  /** Since the template, the import and the floor changed the same tables (bookkeeping aside) to the same rows. */
  function assertSameWork(): void {
    const imported = path.join(server.dataDir, DATABASE_FILE);
    const start = contents(template);
    const byImport = contents(imported);
    const byFloor = contents(floored);
    assert.deepEqual(schema(floored), schema(imported), 'the same schema objects');
    const importTables = changed(start, byImport).filter((table) => !BOOKKEEPING.has(table));
    assert.deepEqual(changed(start, byFloor), importTables, 'the floor writes the tables the import writes, search index included');
    assert.ok(importTables.includes('qrcodes'));
    for (const table of importTables) {
      const floorRows = byFloor.get(table) ?? [];
      const importRows = byImport.get(table) ?? [];
      assert.equal(floorRows.length, importRows.length, `as many rows in ${table}`);
      for (const [i, row] of floorRows.entries()) assert.equal(row, importRows[i], `the same rows in ${table}`);
    }
  }

  it('QR codes without a reference: the same rows, tags and search index', async () => {
    const file = path.join(dir, 'field-qr.csv');
    writeFieldQrCsv(file, ROWS);
    await both(file, '/api/qrcodes/bulk', qrCodeFloor);
    assertSameWork();
  });

  it('appointments: the same schedules, and the QR codes and tags their new tags need', async () => {
    const file = path.join(dir, 'appointments.csv');
    writeAppointmentBenchCsv(file, ROWS);
    await both(file, '/api/appointment_schedule/bulk', appointmentFloor);
    assertSameWork();
  });
});
