import type { Kysely, Selectable } from 'kysely';
import { cachedCount } from '../db/count-cache.ts';
import { inListOrder, pageWindow } from '../db/page-window.ts';
import type { AppointmentScheduleTable, Database, QrCodeTable, QrCodeTagTable } from '../db/schema.ts';
import { isDateBound, type AppointmentListQuery, type AppointmentSchedule } from './schemas.ts';
import { param, SyncQuery, type SyncDb } from './sync-query.ts';
import { QR_CODE_RECORD_FIELDS } from '../qrcodes/record-fields.ts';
import { INDEX_INSERTED_SINCE_SQL } from '../qrcodes/search-index.ts';

export type ScheduleRow = Selectable<AppointmentScheduleTable>;

export function toSchedule(row: ScheduleRow): AppointmentSchedule {
  return {
    uuid: row.uuid,
    organization_uuid: row.organization_uuid,
    qr_code_uuid: row.qr_code_uuid,
    qr_code_tag_uuid: row.qr_code_tag_uuid,
    service: row.service,
    service_uuid: row.service_uuid,
    appointment_date: row.appointment_date,
    start_date_time: row.start_date_time,
    end_date_time: row.end_date_time,
    duration: row.duration,
    all_day: row.all_day === 1,
    no_date_time_provided: row.no_date_time_provided === 1,
    job_reference_id: row.job_reference_id,
    type: row.type,
    timezone_name: row.timezone_name,
    location: row.location,
    notes: row.notes === null ? [] : (JSON.parse(row.notes) as string[]),
    created_on: row.created_on,
    updated_on: row.updated_on,
  };
}

// Synchronous statements for the import batch (run inside the caller's transaction), prepared once per import.

/** The columns an import writes when it updates an appointment. */
export const UPSERT_COLUMNS = [
  'qr_code_uuid',
  'qr_code_tag_uuid',
  'service_uuid',
  'service',
  'location',
  'appointment_date',
  'start_date_time',
  'end_date_time',
  'start_utc',
  'end_utc',
  'duration',
  'timezone_name',
  'job_reference_id',
  'notes',
] as const satisfies readonly (keyof AppointmentScheduleTable)[];

/** The columns of a new appointment: its identity, what an update writes, and what only an insert sets. */
const SCHEDULE_COLUMNS = [
  'uuid',
  'organization_uuid',
  ...UPSERT_COLUMNS,
  'all_day',
  'no_date_time_provided',
  'type',
  'created_on',
  'updated_on',
] as const satisfies readonly (keyof AppointmentScheduleTable)[];

const QR_CODE_COLUMNS = [
  'uuid',
  'organization_uuid',
  ...QR_CODE_RECORD_FIELDS,
  'created_on',
  'updated_on',
  'deleted_on',
] as const satisfies readonly (keyof QrCodeTable)[];

const TAG_COLUMNS = [
  'uuid',
  'organization_uuid',
  'qr_code_uuid',
  'tag_name',
  'tag_number',
  'tag_display_name',
  'created_on',
] as const satisfies readonly (keyof QrCodeTagTable)[];

function placeholders<K extends string>(columns: readonly K[]): Record<K, never> {
  return Object.fromEntries(columns.map((column) => [column, param(column)])) as Record<K, never>;
}

export function importStatements(db: SyncDb) {
  const k = db.kysely;
  const org = param<string>('organization_uuid');
  return {
    organizationZone: new SyncQuery(db, k.selectFrom('organizations').select('default_timezone').where('uuid', '=', org)),
    findTag: new SyncQuery(
      db,
      k
        .selectFrom('qr_code_tags')
        .select(['uuid', 'qr_code_uuid'])
        .where('organization_uuid', '=', org)
        .where('tag_name', '=', param<string>('tag_name'))
        .where('tag_number', '=', param<string>('tag_number')),
    ),
    qrCodeState: new SyncQuery(
      db,
      k.selectFrom('qrcodes').select(['deleted_on', 'timezone_name']).where('uuid', '=', param<string>('uuid')),
    ),
    /**
     * The QR code address without an external reference with this name and location (docs/imports.md's
     * identity), a live one before a deleted one. `external_reference_id is null` lets SQLite use
     * the partial index qrcodes_by_name_location; without it, it read every QR code of the organization.
     */
    findQrCodeAt: new SyncQuery(
      db,
      k
        .selectFrom('qrcodes')
        .select(['uuid', 'deleted_on'])
        .where('organization_uuid', '=', org)
        .where('name', '=', param<string>('location'))
        .where('location', '=', param<string>('location'))
        .where('external_reference_id', 'is', null)
        .orderBy('deleted_on')
        .limit(1),
    ),
    insertQrCode: new SyncQuery(db, k.insertInto('qrcodes').values(placeholders(QR_CODE_COLUMNS))),
    indexQrCodesSince: db.sqlite.prepare<[number | bigint]>(INDEX_INSERTED_SINCE_SQL),
    restoreQrCode: new SyncQuery(
      db,
      k
        .updateTable('qrcodes')
        .set({ deleted_on: null, updated_on: param<string>('now') })
        .where('uuid', '=', param<string>('uuid')),
    ),
    insertTag: new SyncQuery(db, k.insertInto('qr_code_tags').values(placeholders(TAG_COLUMNS))),
    findByReference: new SyncQuery(
      db,
      k
        .selectFrom('appointment_schedules')
        .selectAll()
        .where('organization_uuid', '=', org)
        .where('job_reference_id', '=', param<string>('job_reference_id')),
    ),
    findByTagStartService: new SyncQuery(
      db,
      k
        .selectFrom('appointment_schedules')
        .selectAll()
        .where('organization_uuid', '=', org)
        .where('qr_code_tag_uuid', '=', param<string>('qr_code_tag_uuid'))
        .where('start_utc', '=', param<string>('start_utc'))
        .where('service_uuid', '=', param<string>('service_uuid'))
        .where('job_reference_id', 'is', null),
    ),
    insertSchedule: new SyncQuery(db, k.insertInto('appointment_schedules').values(placeholders(SCHEDULE_COLUMNS))),
    updateSchedule: new SyncQuery(
      db,
      k
        .updateTable('appointment_schedules')
        .set({ ...placeholders(UPSERT_COLUMNS), updated_on: param<string>('updated_on') })
        .where('uuid', '=', param<string>('uuid')),
    ),
  };
}

export type ImportStatements = ReturnType<typeof importStatements>;

// Sync-mode answers: which appointment each row upserted.

/** Records row index -> appointment uuid under `collectKey`, inside the writer's transaction; with a limit, only the first rows. */
export function recordUpsertStatement(
  db: SyncDb,
  collectKey: string,
  limit: number | null = null,
): (index: number, scheduleUuid: string) => void {
  const insert = new SyncQuery(
    db,
    db.kysely
      .insertInto('appointment_import_upserts')
      .values({
        collect_key: param<string>('collect_key'),
        row_index: param<number>('row_index'),
        schedule_uuid: param<string>('schedule_uuid'),
      })
      .onConflict((oc) => oc.columns(['collect_key', 'row_index']).doUpdateSet({ schedule_uuid: param<string>('schedule_uuid') })),
  );
  let recorded = 0;
  return (index, scheduleUuid) => {
    if (limit !== null && recorded >= limit) return;
    recorded++;
    insert.run({ collect_key: collectKey, row_index: index, schedule_uuid: scheduleUuid });
  };
}

/**
 * The appointments recorded under `collectKey`, each once, in the order of the last row that
 * upserted it; the records are removed.
 */
export async function takeUpsertedSchedules(db: Kysely<Database>, collectKey: string): Promise<AppointmentSchedule[]> {
  const rows = await db
    .selectFrom('appointment_import_upserts as u')
    .innerJoin('appointment_schedules as s', 's.uuid', 'u.schedule_uuid')
    .selectAll('s')
    .select('u.row_index')
    .where('u.collect_key', '=', collectKey)
    .orderBy('u.row_index')
    .execute();
  await db.deleteFrom('appointment_import_upserts').where('collect_key', '=', collectKey).execute();
  const lastRow = new Map<string, number>();
  rows.forEach((row, position) => {
    lastRow.set(row.uuid, position);
  });
  return rows.filter((row, position) => lastRow.get(row.uuid) === position).map(({ row_index: _index, ...row }) => toSchedule(row));
}

// Reads for the API.

export async function listSchedules(
  db: Kysely<Database>,
  query: AppointmentListQuery,
): Promise<{ items: AppointmentSchedule[]; total: number }> {
  let base = db.selectFrom('appointment_schedules').where('organization_uuid', '=', query.organization_uuid);
  if (query.qr_code_uuid) base = base.where('qr_code_uuid', '=', query.qr_code_uuid);
  if (query.job_reference_id) base = base.where('job_reference_id', '=', query.job_reference_id);
  if (query.from) {
    base = isDateBound(query.from) ? base.where('appointment_date', '>=', query.from) : base.where('start_utc', '>=', utc(query.from));
  }
  if (query.to) {
    base = isDateBound(query.to) ? base.where('appointment_date', '<=', query.to) : base.where('start_utc', '<=', utc(query.to));
  }
  const total = await cachedCount(db, base);
  const window = pageWindow(total, query.page, query.per_page);
  if (!window) return { items: [], total };
  const direction = window.backward ? 'desc' : 'asc';
  const rows = await base
    .selectAll()
    .orderBy('start_utc', direction)
    .orderBy('uuid', direction)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { items: inListOrder(window, rows).map(toSchedule), total };
}

/** start_utc is stored to the second as …Z, so bounds compare as the same text. */
function utc(instant: string): string {
  return new Date(Date.parse(instant)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
