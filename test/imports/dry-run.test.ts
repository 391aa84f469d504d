import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath } from '../../server/db/database.ts';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { UPLOADS_DIR } from '../../server/imports/settings.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { CYCLED_SUBURBS } from '../support/tiny-geocoder.ts';

const APPOINTMENTS_XLSX = fs.readFileSync(new URL('../fixtures/appointments-libreoffice.xlsx', import.meta.url));

/** Every table's row count and a digest of its contents: a dry run must leave both as they were. */
function databaseState(dataDir: string): Record<string, string> {
  const db = new SQLite(databasePath(dataDir), { readonly: true });
  try {
    // wr: a WITHOUT ROWID table (the search index's own tables), read in its key's order.
    const tables = db
      .prepare<[], { name: string; wr: number }>(
        "select name, wr from pragma_table_list where schema = 'main' and type in ('table', 'virtual') and name not like 'sqlite_%' order by name",
      )
      .all();
    return Object.fromEntries(
      tables.map(({ name, wr }) => {
        const rows = db
          .prepare(`select * from "${name}"${wr ? '' : ' order by rowid'}`)
          .raw()
          .all();
        return [name, `${rows.length} rows, ${createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16)}`];
      }),
    );
  } finally {
    db.close();
  }
}

/**
 * 12,000 QR code rows across three batches of the engine, where later rows depend on what earlier
 * batches wrote: repeated references (updates), tags shared between QR codes (conflicts), rows
 * that cannot be located and rows without a location.
 */
function crossBatchCsv(rows = 12_000): string {
  const lines = ['location,name,qr_code_external_reference_id,tag_name,tag_number,suburb,state,postcode,country'];
  for (let i = 0; i < rows; i++) {
    const [suburb, state, postcode] =
      i % 500 === 499 ? ['Nowhere', 'QLD', '4999'] : (CYCLED_SUBURBS[i % CYCLED_SUBURBS.length] ?? CYCLED_SUBURBS[0]);
    const location = i % 777 === 776 ? '' : `${i} Test Street, ${suburb} ${state} ${postcode}`;
    const tag = i % 3 === 0 ? ['Bin', String(i % 3000)] : ['', ''];
    lines.push([`"${location}"`, `Site ${i}`, `R-${i % 9000}`, ...tag, suburb, state, postcode, 'Australia'].join(','));
  }
  return `${lines.join('\n')}\n`;
}

const withoutDryRunKeys = ({ dry_run: _flag, dry_run_notes: _notes, ...rest }: Record<string, unknown>) => rest;

describe('dry_run on the import endpoints', () => {
  const server = suiteServer(() => startImportTestServer({ imports: { syncRowCap: 50 } }));

  const uploadsLeft = () => fs.readdirSync(path.join(server.dataDir, UPLOADS_DIR)).length;

  const post = async (pathname: string, init: RequestInit, status: number) => {
    const res = await server.request(pathname, init);
    assert.equal(res.status, status, await res.clone().text());
    return (await res.json()) as Record<string, unknown>;
  };

  const qrUpload = (fields: Record<string, string> = {}, csv = crossBatchCsv()) =>
    fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid, ...fields });

  it('a QR file import across batches: the dry run answers exactly the results the real import then gives, and writes nothing', async () => {
    const before = databaseState(server.dataDir);
    const dry = await post('/api/qrcodes/bulk?dry_run=true', qrUpload(), 200);
    assert.deepEqual(databaseState(server.dataDir), before, 'the dry run changed the database');
    assert.equal(uploadsLeft(), 0, 'the dry run left its upload behind');
    assert.equal(dry.dry_run, true);
    assert.ok(Array.isArray(dry.dry_run_notes) && dry.dry_run_notes.length > 0);
    assert.ok(Number(dry.inserted) > 5000, 'first occurrences of the references are inserts');
    assert.ok(Number(dry.updated) > 2000, 'repeated references in later batches are updates');
    assert.ok(Number(dry.excluded) > 100);
    const excluded = dry.excluded_data as { index: number; error: string }[];
    assert.ok(excluded.some((e) => e.error === ADDRESS_NOT_LOCATED));
    assert.ok(
      excluded.some((e) => /already belongs to another QR code/.test(e.error) && e.index >= 5000),
      'a tag conflict with a row of an earlier batch',
    );

    const accepted = await post('/api/qrcodes/bulk', qrUpload(), 202);
    const task = await waitForTask(server, String(accepted.background_task_uuid));
    assert.equal(task.status, 'COMPLETED');
    assert.deepEqual(withoutDryRunKeys(dry), task.results);

    // Now every reference exists: a second dry run predicts the second real import (updates, no inserts).
    const again = await post('/api/qrcodes/bulk', qrUpload({ dry_run: 'true' }), 200);
    assert.equal(again.inserted, 0);
    const second = await waitForTask(server, String((await post('/api/qrcodes/bulk', qrUpload(), 202)).background_task_uuid));
    assert.deepEqual(withoutDryRunKeys(again), second.results);
  });

  it('a QR JSON array in sync mode, and the sync CSV endpoint, answer like their real runs', async () => {
    const records = [
      { location: '1 Dry Street, Fitzroy VIC 3065', organization_uuid: server.organizationUuid, qr_code_external_reference_id: 'DRY-1' },
      { location: '', organization_uuid: server.organizationUuid },
      { location: '2 Dry Street, Atlantis XX 0000', organization_uuid: server.organizationUuid },
    ];
    const before = databaseState(server.dataDir);
    const dry = await post('/api/qrcodes/bulk?processing_mode=sync&dry_run=1', jsonBody(records), 200);
    assert.deepEqual(databaseState(server.dataDir), before);
    const real = await post('/api/qrcodes/bulk?processing_mode=sync', jsonBody(records), 200);
    assert.deepEqual(withoutDryRunKeys(dry), real);
    assert.equal(real.qr_code_inserted, 1);

    const csv = 'location,name\n"3 Dry Street, Richmond VIC 3121",Shed\n,Nothing\n';
    const before2 = databaseState(server.dataDir);
    const dryCsv = await post(
      '/api/qrcodes/bulk-import',
      fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid, dry_run: 'true' }),
      200,
    );
    assert.deepEqual(databaseState(server.dataDir), before2);
    const realCsv = await post(
      '/api/qrcodes/bulk-import',
      fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid }),
      200,
    );
    assert.deepEqual(withoutDryRunKeys(dryCsv), realCsv);
    assert.equal(realCsv.inserted, 1);
    assert.equal(realCsv.excluded, 1);
  });

  it('an XLSX appointment import in background mode: same results, with the computed start and end of each appointment', async () => {
    const upload = (fields: Record<string, string> = {}) =>
      fileUpload(APPOINTMENTS_XLSX, 'appointments.xlsx', { organization_uuid: server.organizationUuid, ...fields });
    const before = databaseState(server.dataDir);
    const dry = await post('/api/appointment_schedule/bulk', upload({ dry_run: 'true' }), 200);
    assert.deepEqual(databaseState(server.dataDir), before);
    assert.equal(uploadsLeft(), 0);
    assert.ok(
      (dry.dry_run_notes as string[]).some((note) => note.includes('service catalog')),
      "says the service catalog is this sandbox's",
    );
    const { appointment_schedules_upserted: predicted, ...dryResults } = withoutDryRunKeys(dry);
    assert.ok(Array.isArray(predicted) && predicted.length === dry.upserted && predicted.length > 0);

    const accepted = await post('/api/appointment_schedule/bulk', upload(), 202);
    const task = await waitForTask(server, String(accepted.background_task_uuid));
    assert.equal(task.status, 'COMPLETED');
    assert.deepEqual(dryResults, task.results);

    const listed = (await (
      await server.request(`/api/appointment_schedule?organization_uuid=${server.organizationUuid}&per_page=100`)
    ).json()) as {
      items: { job_reference_id: string; start_date_time: string; end_date_time: string }[];
    };
    const times = (items: { job_reference_id: string; start_date_time: string; end_date_time: string }[]) =>
      items.map((s) => `${s.job_reference_id} ${s.start_date_time} ${s.end_date_time}`).sort();
    assert.deepEqual(times(predicted as typeof listed.items), times(listed.items));
  });

  it('an appointment JSON array in sync mode: the sync answer of the service contract, equal to the real one', async () => {
    const record = (extra: Record<string, unknown>) => ({
      tag_name: 'Dry',
      tag_number: '1',
      start_date_time: '2026-04-05 02:30',
      location: '1 Collins Street, Melbourne VIC 3000',
      service: 'Plumbing',
      organization_uuid: server.organizationUuid,
      ...extra,
    });
    const records = [
      record({ job_reference_id: 'DRY-A' }),
      record({ service: 'Juggling', job_reference_id: 'DRY-B' }),
      record({ tag_number: '2', job_reference_id: 'DRY-C', duration: 30 }),
    ];
    const before = databaseState(server.dataDir);
    const dry = await post('/api/appointment_schedule/bulk?processing_mode=sync&dry_run=true', jsonBody(records), 200);
    assert.deepEqual(databaseState(server.dataDir), before);
    const real = await post('/api/appointment_schedule/bulk?processing_mode=sync', jsonBody(records), 200);
    // The dry run cannot know the uuids and times the real import gives new records.
    const invented = new Set(['uuid', 'qr_code_uuid', 'qr_code_tag_uuid', 'created_on', 'updated_on']);
    const comparable = (answer: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(answer), (key, value: unknown) => (invented.has(key) ? '(new)' : value)) as unknown;
    assert.deepEqual(comparable(withoutDryRunKeys(dry)), comparable(real));
    assert.equal((real.appointment_schedules_upserted as unknown[]).length, 2);
  });

  it('bad input gets the same 4xx as a real import, and nothing is written', async () => {
    const before = databaseState(server.dataDir);
    const bad = await server.request('/api/qrcodes/bulk?dry_run=maybe', qrUpload());
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /dry_run must be true or false/);

    const overCap = await server.request('/api/qrcodes/bulk', qrUpload({ processing_mode: 'sync', dry_run: 'true' }));
    assert.equal(overCap.status, 400);
    assert.match(await overCap.text(), /Sync mode takes at most 50 rows/);

    const noLocation = await server.request(
      '/api/qrcodes/bulk',
      fileUpload('name\nShed\n', 'x.csv', { organization_uuid: server.organizationUuid, dry_run: 'true' }),
    );
    assert.equal(noLocation.status, 400);

    const otherOrg = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(APPOINTMENTS_XLSX, 'a.xlsx', { organization_uuid: crypto.randomUUID(), dry_run: 'true' }),
    );
    assert.equal(otherOrg.status, 403);
    assert.deepEqual(databaseState(server.dataDir), before);
    assert.equal(uploadsLeft(), 0);
  });
});
