import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  createAppointmentImporter,
  type AppointmentImportOptions,
  type BatchResult,
  type ImportRow,
} from '../../server/appointments/importer.ts';
import type { AppointmentSchedule } from '../../server/appointments/schemas.ts';
import { recordUpsertStatement, takeUpsertedSchedules } from '../../server/appointments/store.ts';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { nowIso } from '../../server/time.ts';
import { tinyGeocoder } from '../support/tiny-geocoder.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';
import type { Page } from '../../server/http/pagination.ts';

const MELBOURNE_ADDRESS = '1 Collins Street, Melbourne VIC 3000, Australia';
const PERTH_ADDRESS = '10 Rokeby Road, Subiaco WA 6008, Australia';

/** The docs/imports.md fields every schedule object carries. */
const SPEC_FIELDS = [
  'organization_uuid',
  'qr_code_uuid',
  'qr_code_tag_uuid',
  'service',
  'appointment_date',
  'start_date_time',
  'end_date_time',
  'duration',
  'all_day',
  'no_date_time_provided',
  'job_reference_id',
  'type',
];

describe('appointment import batch (synchronous upsert on the real database)', () => {
  let server: TestServer;
  let org: string;
  const geocoder = tinyGeocoder;

  before(async () => {
    server = await startTestServer();
    org = server.organizationUuid;
  });
  after(() => server.stop());

  function run(data: Record<string, unknown>[], options: Partial<AppointmentImportOptions> = {}, firstIndex = 0): BatchResult {
    const importer = createAppointmentImporter(server.ctx.db, { organizationUuid: org, geocoder, collectSchedules: true, ...options });
    const rows: ImportRow[] = data.map((row, i) => ({ index: firstIndex + i, data: row }));
    return server.ctx.db.sqlite.transaction(() => importer.importBatch(rows))();
  }

  const row = (extra: Record<string, unknown> = {}) => ({
    tag_name: 'Gate',
    tag_number: '17',
    start_date_time: '2026-03-02 09:00',
    location: MELBOURNE_ADDRESS,
    service: 'Plumbing',
    ...extra,
  });

  const listed = async (query: string): Promise<Page<AppointmentSchedule>> => {
    const res = await server.request(`/api/appointment_schedule?organization_uuid=${org}${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Page<AppointmentSchedule>;
  };

  it('imports a row into a full schedule object, creating the tag on a located QR code address', async () => {
    const result = run([row({ job_reference_id: 'JOB-1', duration: '90' })]);
    assert.deepEqual(result.excluded, []);
    assert.deepEqual([result.upserted, result.inserted, result.tags_created], [1, 1, 1]);
    const schedule = result.schedules[0];
    assert.ok(schedule);
    for (const field of SPEC_FIELDS) assert.ok(field in schedule, `${field} in the schedule object`);
    assert.equal(schedule.organization_uuid, org);
    assert.equal(schedule.service, 'Plumbing');
    assert.equal(schedule.appointment_date, '2026-03-02');
    assert.equal(schedule.start_date_time, '2026-03-02T09:00:00+11:00');
    assert.equal(schedule.end_date_time, '2026-03-02T10:30:00+11:00');
    assert.equal(schedule.duration, 90);
    assert.equal(schedule.all_day, false);
    assert.equal(schedule.no_date_time_provided, false);
    assert.equal(schedule.type, 'SERVICE');
    assert.equal(schedule.job_reference_id, 'JOB-1');
    assert.deepEqual(schedule.notes, []);

    const tag = await server.ctx.db.kysely
      .selectFrom('qr_code_tags')
      .selectAll()
      .where('uuid', '=', schedule.qr_code_tag_uuid)
      .executeTakeFirstOrThrow();
    assert.deepEqual([tag.tag_name, tag.tag_number, tag.qr_code_uuid], ['Gate', '17', schedule.qr_code_uuid]);
    const qr = await server.ctx.db.kysely
      .selectFrom('qrcodes')
      .selectAll()
      .where('uuid', '=', schedule.qr_code_uuid)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [qr.location, qr.name, qr.type, qr.suburb, qr.postcode, qr.timezone_name],
      [MELBOURNE_ADDRESS, MELBOURNE_ADDRESS, 'SITE', 'Melbourne', '3000', 'Australia/Melbourne'],
    );

    const page = await listed('&job_reference_id=JOB-1');
    assert.equal(page.total, 1);
    assert.deepEqual(page.items[0], schedule);
  });

  it('upserts on job_reference_id: the same reference twice updates the one appointment', async () => {
    const first = run([row({ job_reference_id: 'JOB-2', start_date_time: '2026-05-01 10:00' })]);
    const second = run([row({ job_reference_id: 'JOB-2', start_date_time: '2026-05-01 14:00', duration: 30 })]);
    assert.deepEqual([second.upserted, second.inserted, second.updated], [1, 0, 1]);
    assert.equal(second.schedules[0]?.uuid, first.schedules[0]?.uuid);
    const page = await listed('&job_reference_id=JOB-2');
    assert.equal(page.total, 1);
    assert.equal(page.items[0]?.start_date_time, '2026-05-01T14:00:00+10:00');
    assert.equal(page.items[0]?.end_date_time, '2026-05-01T14:30:00+10:00');
    const inOneBatch = run([row({ job_reference_id: 'JOB-3', duration: 15 }), row({ job_reference_id: 'JOB-3', duration: 45 })]);
    assert.deepEqual([inOneBatch.inserted, inOneBatch.updated], [1, 1]);
    assert.equal((await listed('&job_reference_id=JOB-3')).items[0]?.duration, 45);
  });

  it('without job_reference_id the key is (tag, start, service); re-importing the same rows changes and duplicates nothing', async () => {
    const rows = [
      row({ tag_number: '30', start_date_time: '2026-06-01 08:00' }),
      row({ tag_number: '30', start_date_time: '2026-06-01 08:00', service: 'Cleaning' }),
      row({ tag_number: '30', start_date_time: '2026-06-01T08:00:00+10:00', duration: 120 }),
    ];
    const first = run(rows);
    assert.deepEqual(
      [first.inserted, first.updated, first.tags_created],
      [2, 1, 1],
      'the third row is the first one written with an explicit offset',
    );
    const before = (await listed('&per_page=100')).items;
    const again = run(rows);
    // The file names one appointment twice (rows 1 and 3): the last row wins again, the same end state.
    assert.deepEqual([again.upserted, again.inserted, again.updated, again.unchanged, again.tags_created], [3, 0, 2, 1, 0]);
    const twice = run(rows.slice(1));
    assert.deepEqual([twice.unchanged, twice.updated], [2, 0]);
    const afterwards = (await listed('&per_page=100')).items;
    assert.equal(afterwards.length, before.length, 'nothing duplicated');
    const essentials = (items: AppointmentSchedule[]) =>
      items.map((s) => [s.uuid, s.service, s.start_date_time, s.end_date_time, s.duration]);
    assert.deepEqual(essentials(afterwards), essentials(before));
    const tags = await server.ctx.db.kysely.selectFrom('qr_code_tags').select('uuid').where('tag_number', '=', '30').execute();
    assert.equal(tags.length, 1);
    const qrcodes = await server.ctx.db.kysely.selectFrom('qrcodes').select('uuid').where('location', '=', MELBOURNE_ADDRESS).execute();
    assert.equal(qrcodes.length, 1, 'tags at the same address share one QR code address');
  });

  it('a re-import that changes nothing keeps updated_on', async () => {
    const first = run([row({ job_reference_id: 'JOB-SAME' })]);
    const second = run([row({ job_reference_id: 'JOB-SAME' })]);
    assert.equal(second.unchanged, 1);
    assert.deepEqual(second.schedules[0], first.schedules[0]);
  });

  it('finds the service by code (ignoring case) or by name, and excludes an unknown one naming it', () => {
    const result = run(
      [
        row({ tag_number: '40', service: undefined, service_code: 'cln', job_reference_id: 'S-1' }),
        row({ tag_number: '40', service: 'pest control', job_reference_id: 'S-2' }),
        row({ tag_number: '40', service: 'Plumbin', job_reference_id: 'S-3' }),
        row({ tag_number: '40', service: undefined, service_code: 'XYZ', job_reference_id: 'S-4' }),
        row({ tag_number: '40', service: 'Plumbing', service_code: 'CLN', job_reference_id: 'S-5' }),
      ],
      {},
      10,
    );
    assert.deepEqual(
      result.schedules.map((s) => s.service),
      ['Cleaning', 'Pest Control'],
    );
    assert.deepEqual(
      result.excluded.map((e) => e.index),
      [12, 13, 14],
    );
    assert.match(
      result.excluded[0]?.error_message ?? '',
      /^service "Plumbin" is not in this organization's service catalog. Known services: .*Plumbing/,
    );
    assert.match(
      result.excluded[1]?.error_message ?? '',
      /^service_code "XYZ" is not in this organization's service catalog. Known codes: .*PLB/,
    );
    assert.match(result.excluded[2]?.error_message ?? '', /service_code "CLN" is the service "Cleaning", but service says "Plumbing"/);
    assert.deepEqual(result.excluded[0]?.data, row({ tag_number: '40', service: 'Plumbin', job_reference_id: 'S-3' }), 'the row as given');
  });

  it('excludes invalid rows with their index and message and imports the rest', () => {
    const result = run([
      row({ tag_name: '', job_reference_id: 'V-1' }),
      row({ job_reference_id: 'V-2' }),
      row({ duration: '0', job_reference_id: 'V-3' }),
    ]);
    assert.equal(result.upserted, 1);
    assert.deepEqual(
      result.excluded.map((e) => [e.index, e.error_message]),
      [
        [0, 'tag_name is required, for example Gate.'],
        [2, 'duration must be a whole number of minutes greater than 0, for example 60; the row has "0".'],
      ],
    );
  });

  it('excludes a row whose new tag has an address that cannot be located, with the spec message', () => {
    const result = run([row({ tag_number: '50', location: 'Somewhere over the rainbow' })]);
    assert.deepEqual(
      result.excluded.map((e) => e.error_message),
      [ADDRESS_NOT_LOCATED],
    );
  });

  it('zone rule: timezone_name, else the located address, else the organization default', async () => {
    const perth = run([row({ tag_number: '60', location: PERTH_ADDRESS, job_reference_id: 'Z-1' })]);
    assert.equal(perth.schedules[0]?.start_date_time, '2026-03-02T09:00:00+08:00');
    assert.equal(perth.schedules[0]?.timezone_name, 'Australia/Perth');
    const named = run([row({ tag_number: '60', location: PERTH_ADDRESS, job_reference_id: 'Z-2', timezone_name: 'europe/london' })]);
    assert.equal(named.schedules[0]?.start_date_time, '2026-03-02T09:00:00+00:00');
    assert.equal(named.schedules[0]?.timezone_name, 'Europe/London');

    // An organization whose default zone is Europe/Rome, with a tag on a QR code that was never located.
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Rome Org', defaultTimezone: 'Europe/Rome' });
    const db = server.ctx.db.kysely;
    const now = nowIso();
    const qr = randomUUID();
    await db
      .insertInto('services')
      .values({
        uuid: randomUUID(),
        organization_uuid: other.organization_uuid,
        name: 'Visit',
        name_key: 'visit',
        code: null,
        code_key: null,
        created_on: now,
        updated_on: now,
        deleted_on: null,
      })
      .execute();
    // A QR code never located: every address field is left empty (null).
    server.ctx.db.sqlite
      .prepare('insert into qrcodes (uuid, organization_uuid, type, name, location, created_on, updated_on) values (?, ?, ?, ?, ?, ?, ?)')
      .run(qr, other.organization_uuid, 'SITE', 'Warehouse', 'Warehouse', now, now);
    await db
      .insertInto('qr_code_tags')
      .values({
        uuid: randomUUID(),
        organization_uuid: other.organization_uuid,
        qr_code_uuid: qr,
        tag_name: 'Door',
        tag_number: '1',
        tag_display_name: 'Door 1',
        created_on: now,
      })
      .execute();
    const rome = run(
      [{ tag_name: 'Door', tag_number: '1', start_date_time: '2026-07-01 09:00', location: 'Warehouse', service: 'Visit' }],
      { organizationUuid: other.organization_uuid },
    );
    assert.deepEqual(rome.excluded, [], 'a known tag does not need its address located');
    assert.equal(rome.schedules[0]?.start_date_time, '2026-07-01T09:00:00+02:00');
    assert.equal(rome.schedules[0]?.timezone_name, 'Europe/Rome');
    const foreign = await server.request(`/api/appointment_schedule?organization_uuid=${org}`, {
      headers: { authorization: bearer(other) },
    });
    assert.equal(foreign.status, 403);
  });

  it('DST in Melbourne: gap and overlap follow the rule and carry notes; a duration across the change counts real minutes', () => {
    const result = run([
      row({ tag_number: '70', start_date_time: '2026-10-04 02:30', job_reference_id: 'DST-GAP' }),
      row({ tag_number: '70', start_date_time: '2026-04-05 02:30', job_reference_id: 'DST-OVERLAP' }),
      row({ tag_number: '70', start_date_time: '2026-04-05 01:30', duration: 120, job_reference_id: 'DST-SPAN' }),
    ]);
    const [gap, overlap, span] = result.schedules;
    assert.equal(gap?.start_date_time, '2026-10-04T03:30:00+11:00');
    assert.match(gap?.notes[0] ?? '', /does not exist/);
    assert.equal(overlap?.start_date_time, '2026-04-05T02:30:00+11:00');
    assert.match(overlap?.notes[0] ?? '', /happens twice/);
    assert.equal(span?.end_date_time, '2026-04-05T02:30:00+10:00');
    assert.match(span?.notes[0] ?? '', /spans a daylight-saving change/);
  });

  it('reads the columns of an import handler mapping', () => {
    const result = run(
      [
        {
          Asset: 'Pump',
          'Asset No': 9,
          'Visit Start': '2026-08-03 07:15',
          Site: '12 Smith St, Fitzroy VIC 3065',
          'Job Ref': 'H-1',
          service: 'Plumbing',
          Comment: 'x',
        },
      ],
      {
        mapping: {
          Asset: 'tag_name',
          'Asset No': 'tag_number',
          'Visit Start': 'start_date_time',
          Site: 'location',
          'Job Ref': 'job_reference_id',
        },
      },
    );
    assert.deepEqual(result.excluded, []);
    assert.equal(result.schedules[0]?.job_reference_id, 'H-1');
    assert.equal(result.schedules[0]?.start_date_time, '2026-08-03T07:15:00+10:00');
  });

  it('records which appointment each row upserted (sync answers) and hands each back once, in the order of its last row', async () => {
    const importer = createAppointmentImporter(server.ctx.db, { organizationUuid: org, geocoder });
    const record = recordUpsertStatement(server.ctx.db, 'sync-key-1');
    const data = [
      row({ job_reference_id: 'U-1' }),
      row({ job_reference_id: 'U-2' }),
      row({ job_reference_id: 'U-1', duration: 30 }),
      row({ tag_name: '' }),
    ];
    server.ctx.db.sqlite.transaction(() => {
      data.forEach((values, index) => {
        const validated = importer.validate(values);
        if (!validated.ok) return;
        const outcome = importer.writeRow(validated.row);
        if (outcome.ok) record(index, outcome.uuid);
      });
    })();
    const schedules = await takeUpsertedSchedules(server.ctx.db.kysely, 'sync-key-1');
    assert.deepEqual(
      schedules.map((s) => [s.job_reference_id, s.duration]),
      [
        ['U-2', 60],
        ['U-1', 30],
      ],
    );
    assert.deepEqual(await takeUpsertedSchedules(server.ctx.db.kysely, 'sync-key-1'), [], 'taken once');
  });

  it('an appointment for a tag whose QR code address was deleted restores that address', async () => {
    const first = run([row({ tag_number: '80', job_reference_id: 'DEL-1' })]);
    const qr = first.schedules[0]?.qr_code_uuid ?? '';
    await server.ctx.db.kysely.updateTable('qrcodes').set({ deleted_on: nowIso() }).where('uuid', '=', qr).execute();
    const again = run([row({ tag_number: '80', job_reference_id: 'DEL-2' })]);
    assert.equal(again.schedules[0]?.qr_code_uuid, qr);
    const restored = await server.ctx.db.kysely.selectFrom('qrcodes').select('deleted_on').where('uuid', '=', qr).executeTakeFirstOrThrow();
    assert.equal(restored.deleted_on, null);
  });

  it('refuses to run for an organization that does not exist', () => {
    assert.throws(
      () => createAppointmentImporter(server.ctx.db, { organizationUuid: 'nope', geocoder }),
      /Organization nope does not exist/,
    );
  });
});
