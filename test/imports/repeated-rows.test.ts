/**
 * Issue 39 point 4 through the API, with the shipped offline geocoder: a key repeated inside one
 * file (an external reference, a name and location, a job reference) is a warning on the later
 * row naming the earlier row of the file, alike in the preview, the dry run, the sync answer and
 * the task's results; a postcode no place of the country has is a warning that says so.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { RepeatedRows } from '../../server/imports/engine/repeated-rows.ts';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

interface Warning {
  index: number;
  row_number?: number;
  warning: string;
}
interface QrResults {
  inserted: number;
  updated: number;
  warned?: number;
  warnings?: Warning[];
}

/** The repeated reference is on lines 2 and 4 of the file, the repeated name and location on lines 5 and 6. */
const QR_CSV = [
  'location,name,qr_code_external_reference_id',
  '"1 Mitchell St, Darwin NT 0800",Depot,EXT-1019',
  '"2 Hay St, Perth WA 6000",Office,EXT-1020',
  '"3 Hay St, Perth WA 6000",Depot again,EXT-1019',
  '"5 Campbell Parade, Bondi NSW 2026",Kiosk,',
  '"5 Campbell Parade, Bondi NSW 2026",Kiosk,',
].join('\r\n');

const REPEATED_REFERENCE =
  /^qr_code_external_reference_id: EXT-1019 is also on row 2 of this file: both rows write the same QR code, and this later row's values are the ones kept\.$/;
const REPEATED_NAME = /^name and location: "Kiosk" at "5 Campbell Parade, Bondi NSW 2026" is also on row 5 of this file/;

describe('RepeatedRows', () => {
  it('names the first row of each record written twice, through the growth of its table, and nothing else', () => {
    const repeated = new RepeatedRows((index) => index + 2);
    const records = Array.from({ length: 50_000 }, () => randomUUID());
    const firsts = records.map((record, index) => repeated.wrote(index, record, `ref ${index}`, 'QR code'));
    assert.deepEqual(
      firsts.filter((warning) => warning !== null),
      [],
    );
    assert.equal(repeated.wrote(7, records[7] ?? '', 'ref 7', 'QR code'), null, 'the same row again is no repeat');
    assert.equal(
      repeated.wrote(60_000, records[12_345] ?? '', 'qr_code_external_reference_id: A-1', 'QR code'),
      "qr_code_external_reference_id: A-1 is also on row 12347 of this file: both rows write the same QR code, and this later row's values are the ones kept.",
    );
    assert.match(
      repeated.wrote(60_001, records[0] ?? '', 'k', 'appointment') ?? '',
      /also on row 2 of this file: both rows write the same appointment/,
    );
  });
});

describe('Keys repeated inside one file, and postcodes no place has', () => {
  const server = suiteServer();
  const org = () => server.organizationUuid;

  const qrImport = async (csv: string, fields: Record<string, string>) => {
    const res = await server.request('/api/qrcodes/bulk', fileUpload(csv, 'sites.csv', { organization_uuid: org(), ...fields }));
    return res;
  };

  it('warns on the later row of a repeated reference or name and location, naming the earlier row, in the preview', async () => {
    const res = await server.request(
      '/api/imports/preview',
      fileUpload(QR_CSV, 'sites.csv', { kind: 'qrcodes', organization_uuid: org() }),
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as { rows: { row_number: number; problems: string[]; warnings: string[] }[] };
    assert.deepEqual(
      body.rows.map((r) => [r.row_number, r.problems, r.warnings.length]),
      [
        [2, [], 0],
        [3, [], 0],
        [4, [], 1],
        [5, [], 0],
        [6, [], 1],
      ],
    );
    assert.match(body.rows[2]?.warnings[0] ?? '', REPEATED_REFERENCE);
    assert.match(body.rows[4]?.warnings[0] ?? '', REPEATED_NAME);
  });

  it('says the same in the dry run, the sync answer and the task results; the counts are what happened', async () => {
    const dry = await qrImport(QR_CSV, { dry_run: 'true' });
    assert.equal(dry.status, 200, await dry.clone().text());
    const dryBody = (await dry.json()) as QrResults;
    assert.deepEqual([dryBody.inserted, dryBody.updated, dryBody.warned], [3, 2, 2]);
    assert.deepEqual(
      dryBody.warnings?.map((w) => w.index),
      [2, 4],
    );
    assert.match(dryBody.warnings?.[0]?.warning ?? '', REPEATED_REFERENCE);
    assert.match(dryBody.warnings?.[1]?.warning ?? '', REPEATED_NAME);

    const accepted = await qrImport(QR_CSV, {});
    assert.equal(accepted.status, 202);
    const task = await waitForTask(server, ((await accepted.json()) as { background_task_uuid: string }).background_task_uuid);
    const results = task.results as unknown as QrResults;
    assert.deepEqual([results.inserted, results.updated, results.warned], [3, 2, 2]);
    assert.deepEqual(results.warnings, dryBody.warnings);
    const stored = server.ctx.db.sqlite
      .prepare("select name from qrcodes where organization_uuid = ? and external_reference_id = 'EXT-1019'")
      .all(org()) as { name: string }[];
    assert.deepEqual(stored, [{ name: 'Depot again' }], 'the later row is kept, as the warning says');

    // Imported again (sync): both rows match the stored codes; the repeat is still said.
    const sync = await qrImport(QR_CSV, { processing_mode: 'sync' });
    assert.equal(sync.status, 200);
    const syncBody = (await sync.json()) as QrResults;
    assert.deepEqual([syncBody.inserted, syncBody.updated, syncBody.warned], [0, 5, 2]);
    assert.deepEqual(syncBody.warnings, dryBody.warnings);
  });

  it('warns on a repeated job reference of an appointments file', async () => {
    const csv = [
      'tag_name,tag_number,start_date_time,location,duration,service,job_reference_id',
      'Gate,R-1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",60,Cleaning,JOB-7',
      'Gate,R-2,2026-03-03 09:00,"1 Collins Street, Melbourne VIC 3000",60,Cleaning,JOB-7',
    ].join('\r\n');
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(csv, 'visits.csv', { organization_uuid: org(), dry_run: 'true' }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { inserted: number; updated: number; warnings?: Warning[] };
    assert.deepEqual([body.inserted, body.updated], [1, 1]);
    assert.deepEqual(body.warnings, [
      {
        index: 1,
        row_number: 3,
        warning:
          "job_reference_id: JOB-7 is also on row 2 of this file: both rows write the same appointment, and this later row's values are the ones kept.",
      },
    ]);
  });

  it('warns that a postcode no place of the country has was replaced, never that none was given', async () => {
    const csv = ['location,name,suburb,state,postcode', '"Canberra ACT 99999",Capital,Canberra,ACT,99999'].join('\r\n');
    const res = await server.request('/api/imports/preview', fileUpload(csv, 'sites.csv', { kind: 'qrcodes', organization_uuid: org() }));
    const body = (await res.json()) as { rows: { problems: string[]; warnings: string[] }[] };
    assert.deepEqual(body.rows[0]?.problems, []);
    assert.deepEqual(body.rows[0]?.warnings, [
      'Address located, but not exactly as written: The suburb won: "99999" is not a postcode Australia has, so Canberra ACT\'s delivery postcode 2600 is used.',
    ]);
    const sync = await qrImport(csv, { processing_mode: 'sync' });
    const results = (await sync.json()) as QrResults;
    assert.equal(results.warned, 1);
    assert.doesNotMatch(results.warnings?.[0]?.warning ?? '', /No postcode was given/);
    assert.match(results.warnings?.[0]?.warning ?? '', /"99999" is not a postcode Australia has/);
  });
});
