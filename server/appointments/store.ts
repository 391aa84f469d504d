import type { Kysely, Selectable } from 'kysely';
import type { AppointmentScheduleTable, Database, QrCodeTable, QrCodeTagTable } from '../db/schema.ts';
import { isDateBound, type AppointmentListQuery, type AppointmentSchedule } from './schemas.ts';
import { execute, selectFirst, type SyncDb } from './sync-query.ts';

type ScheduleRow = Selectable<AppointmentScheduleTable>;

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

// Synchronous statements for the import batch (run inside the caller's transaction).

export function organizationZone(db: SyncDb, organizationUuid: string): string | undefined {
  return selectFirst(db, db.kysely.selectFrom('organizations').select('default_timezone').where('uuid', '=', organizationUuid))?.default_timezone;
}

export function findTagSync(db: SyncDb, organizationUuid: string, tagName: string, tagNumber: string) {
  return selectFirst(
    db,
    db.kysely
      .selectFrom('qr_code_tags')
      .innerJoin('qrcodes', 'qrcodes.uuid', 'qr_code_tags.qr_code_uuid')
      .select(['qr_code_tags.uuid as tag_uuid', 'qr_code_tags.qr_code_uuid', 'qrcodes.deleted_on', 'qrcodes.timezone_name'])
      .where('qr_code_tags.organization_uuid', '=', organizationUuid)
      .where('qr_code_tags.tag_name', '=', tagName)
      .where('qr_code_tags.tag_number', '=', tagNumber),
  );
}

/** A QR code address with this name and location (DESIGN.md's identity without an external reference), deleted or not. */
export function findQrCodeAtSync(db: SyncDb, organizationUuid: string, location: string) {
  return selectFirst(
    db,
    db.kysely
      .selectFrom('qrcodes')
      .select(['uuid', 'deleted_on'])
      .where('organization_uuid', '=', organizationUuid)
      .where('name', '=', location)
      .where('location', '=', location)
      .orderBy('deleted_on', 'desc')
      .limit(1),
  );
}

export function insertQrCodeSync(db: SyncDb, row: QrCodeTable): void {
  execute(db, db.kysely.insertInto('qrcodes').values(row));
}

export function restoreQrCodeSync(db: SyncDb, uuid: string, now: string): void {
  execute(db, db.kysely.updateTable('qrcodes').set({ deleted_on: null, updated_on: now }).where('uuid', '=', uuid));
}

export function insertTagSync(db: SyncDb, row: QrCodeTagTable): void {
  execute(db, db.kysely.insertInto('qr_code_tags').values(row));
}

export function findScheduleByReferenceSync(db: SyncDb, organizationUuid: string, jobReferenceId: string): ScheduleRow | undefined {
  return selectFirst(
    db,
    db.kysely.selectFrom('appointment_schedules').selectAll().where('organization_uuid', '=', organizationUuid).where('job_reference_id', '=', jobReferenceId),
  );
}

export function findScheduleByTagStartServiceSync(
  db: SyncDb,
  key: { organizationUuid: string; tagUuid: string; startUtc: string; serviceUuid: string },
): ScheduleRow | undefined {
  return selectFirst(
    db,
    db.kysely
      .selectFrom('appointment_schedules')
      .selectAll()
      .where('organization_uuid', '=', key.organizationUuid)
      .where('qr_code_tag_uuid', '=', key.tagUuid)
      .where('start_utc', '=', key.startUtc)
      .where('service_uuid', '=', key.serviceUuid)
      .where('job_reference_id', 'is', null),
  );
}

export function insertScheduleSync(db: SyncDb, row: AppointmentScheduleTable): void {
  execute(db, db.kysely.insertInto('appointment_schedules').values(row));
}

export function updateScheduleSync(db: SyncDb, uuid: string, set: Partial<AppointmentScheduleTable>): void {
  execute(db, db.kysely.updateTable('appointment_schedules').set(set).where('uuid', '=', uuid));
}

// Reads for the API.

export async function listSchedules(db: Kysely<Database>, query: AppointmentListQuery): Promise<{ items: AppointmentSchedule[]; total: number }> {
  let base = db.selectFrom('appointment_schedules').where('organization_uuid', '=', query.organization_uuid);
  if (query.qr_code_uuid) base = base.where('qr_code_uuid', '=', query.qr_code_uuid);
  if (query.job_reference_id) base = base.where('job_reference_id', '=', query.job_reference_id);
  if (query.from) {
    base = isDateBound(query.from) ? base.where('appointment_date', '>=', query.from) : base.where('start_utc', '>=', utc(query.from));
  }
  if (query.to) {
    base = isDateBound(query.to) ? base.where('appointment_date', '<=', query.to) : base.where('start_utc', '<=', utc(query.to));
  }
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('start_utc').orderBy('uuid').limit(query.per_page).offset((query.page - 1) * query.per_page).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toSchedule), total: Number(count.n) };
}

/** start_utc is stored to the second as …Z, so bounds compare as the same text. */
function utc(instant: string): string {
  return new Date(Date.parse(instant)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
