import { uuid7 } from '../db/uuid7.ts';
import type { AppointmentScheduleTable } from '../db/schema.ts';
import type { Geocoder, GeoResult } from '../geocoding/geocoder.ts';
import { locatedWarning } from '../imports/engine/located-warning.ts';
import { notLocatedError } from '../imports/engine/not-located.ts';
import { catalogKey, catalogQuery } from '../services/store.ts';
import { nowIso } from '../time.ts';
import { ColumnMapper } from './columns.ts';
import type { AppointmentField } from './fields.ts';
import {
  appointmentRowSchema,
  validateAppointmentRow,
  type AppointmentRow,
  type AppointmentRowSchema,
  type RowOutcome,
} from './row-schema.ts';
import type { AppointmentSchedule, ExcludedAppointment } from './schemas.ts';
import { importStatements, toSchedule, UPSERT_COLUMNS, type ImportStatements } from './store.ts';
import { param, SyncQuery, type SyncDb } from './sync-query.ts';
import { KnownKeys } from '../imports/engine/known-keys.ts';
import { chooseTimeZone, type DateOrder, ScheduleTimesCache } from './times.ts';
import { organizationDateOrder } from '../settings/date-order.ts';

export interface AppointmentImportOptions {
  organizationUuid: string;
  geocoder: Geocoder;
  /** Column title -> spec field of the import handler (empty or absent: the spec's names). */
  mapping?: Record<string, AppointmentField>;
  /** The records are keyed by field already (the engine applied the mapping); the mapping only names columns in messages. */
  recordsKeyedByField?: boolean;
  /** Keep the schedule object of every upserted row (sync mode answers with them). */
  collectSchedules?: boolean;
  /** How this file's start dates with slashes are read (inferred from the file or chosen in the preview); absent: the organization's date order. */
  startDateOrder?: DateOrder;
}

/** One data row as read from the file or JSON array, keyed by the file's column titles. */
export interface ImportRow {
  /** 0-based position among the data rows. */
  index: number;
  data: Record<string, unknown>;
}

export interface BatchResult {
  /** Rows inserted or updated, counting rows that were already exactly so (a re-import). */
  upserted: number;
  inserted: number;
  updated: number;
  /** Upserted rows that matched an existing appointment with identical values: nothing was written. */
  unchanged: number;
  tags_created: number;
  /** Rows by their index only: the caller knows where they are in a file. */
  excluded: Omit<ExcludedAppointment, 'row_number'>[];
  /** Filled only with collectSchedules. */
  schedules: AppointmentSchedule[];
}

export type WriteOutcome =
  | {
      ok: true;
      uuid: string;
      schedule: AppointmentSchedule | null;
      kind: 'inserted' | 'updated' | 'unchanged';
      tagCreated: boolean;
      /** What the import reads other than as written, worded as row errors are (the column first): the row is imported. */
      warnings: string[];
    }
  | { ok: false; error: string };

interface CatalogEntry {
  uuid: string;
  name: string;
  name_key: string;
  code: string | null;
}

interface KnownTag {
  tagUuid: string;
  qrCodeUuid: string;
  /** The zone of the tag's QR code address, when it was located. */
  zone: string | null;
}

const GEOCODE_CACHE_LIMIT = 20_000;
const TAG_CACHE_LIMIT = 20_000;

/** The job references of the organization's appointments (appointments_by_job_reference). */
export const JOB_REFERENCES = {
  select: 'select job_reference_id from appointment_schedules where organization_uuid = ? and job_reference_id is not null',
  count: 'select count(*) from appointment_schedules where organization_uuid = ? and job_reference_id is not null',
};

/**
 * Validates and upserts appointment rows (docs/imports.md, "Importing appointments"). Synchronous: the
 * import engine calls importBatch inside its per-batch transaction on its own connection.
 * One importer serves one import; it keeps only bounded caches between batches.
 */
export class AppointmentImporter {
  readonly mapper: ColumnMapper;
  private readonly options: AppointmentImportOptions;
  private readonly sql: ImportStatements;
  private readonly catalog: SyncQuery<CatalogEntry & { code_key: string | null }>;
  private readonly times = new ScheduleTimesCache();
  private readonly schema: AppointmentRowSchema;
  /** How start dates with slashes are read: the file's own order, else the organization's date order (Settings). */
  readonly dateOrder: DateOrder;
  private readonly organizationZone: string;
  private readonly located = new Map<string, GeoResult | null>();
  private readonly notLocatedErrors = new Map<string, string>();
  private readonly locatedWarnings = new Map<string, string | null>();
  private byCode = new Map<string, CatalogEntry>();
  private byName = new Map<string, CatalogEntry>();
  private tags = new Map<string, KnownTag>();
  private qrCodeZones = new Map<string, string | null>();
  /** The job references the organization holds (read at the first row with one). */
  private readonly jobReferences: KnownKeys;
  /** The time stamp of the batch's rows (one clock read a batch). */
  private batchNow: string | null = null;
  /** The rowid of the batch's first new QR code (new rows get rowids above every existing one). */
  private firstNewQrCode: number | bigint | null = null;

  constructor(db: SyncDb, options: AppointmentImportOptions) {
    this.options = options;
    this.jobReferences = new KnownKeys(db.sqlite, JOB_REFERENCES, options.organizationUuid);
    this.sql = importStatements(db);
    this.catalog = new SyncQuery(db, catalogQuery(db.kysely, param<string>('organization_uuid')));
    this.mapper = new ColumnMapper(options.mapping, { titlesOnly: options.recordsKeyedByField === true });
    this.dateOrder = options.startDateOrder ?? organizationDateOrder(db, options.organizationUuid);
    this.schema = appointmentRowSchema({
      organizationUuid: options.organizationUuid,
      label: (field) => this.mapper.label(field),
      dateOrder: this.dateOrder,
    });
    const zone = this.sql.organizationZone.get({ organization_uuid: options.organizationUuid })?.default_timezone;
    if (zone === undefined) throw new Error(`Organization ${options.organizationUuid} does not exist.`);
    this.organizationZone = zone;
    this.loadCatalog();
  }

  /** Problems with a file's header row (see ColumnMapper.checkHeaders); empty when it can be imported. */
  checkHeaders(headers: string[], options: { organizationGiven: boolean }): string[] {
    return this.mapper.checkHeaders(headers, options);
  }

  /** Imports one batch. Run it inside a transaction: it writes tags, QR codes and appointments. */
  importBatch(rows: ImportRow[]): BatchResult {
    this.beginBatch();
    const result: BatchResult = { upserted: 0, inserted: 0, updated: 0, unchanged: 0, tags_created: 0, excluded: [], schedules: [] };
    for (const input of rows) {
      const validated = this.validate(input.data);
      const outcome: WriteOutcome = validated.ok ? this.writeRow(validated.row) : { ok: false, error: validated.error_message };
      if (!outcome.ok) {
        result.excluded.push({ index: input.index, data: input.data, error_message: outcome.error });
        continue;
      }
      result.upserted++;
      result[outcome.kind]++;
      if (outcome.tagCreated) result.tags_created++;
      if (outcome.schedule) result.schedules.push(outcome.schedule);
    }
    this.endBatch();
    return result;
  }

  /**
   * Starts a batch: reloads the service catalog and forgets the tags seen, so a rolled-back
   * earlier batch leaves nothing stale. (A writer that never calls it keeps the catalog read at
   * construction, and its tag cache, for the whole import.)
   */
  beginBatch(): void {
    this.loadCatalog();
    this.tags = new Map();
    this.qrCodeZones = new Map();
  }

  /**
   * Ends a batch, inside its transaction: the QR codes it created go into the search index in one
   * statement (one a row cost FTS5 a flush of its pending terms each: 0.6 s per 5,000 new tags);
   * the next row checks whether another connection wrote meanwhile (KnownKeys) and reads the clock again.
   */
  endBatch(): void {
    if (this.firstNewQrCode !== null) this.sql.indexQrCodesSince.run(this.firstNewQrCode);
    this.firstNewQrCode = null;
    this.jobReferences.endBatch();
    this.batchNow = null;
  }

  /** A record keyed by the file's column titles, mapped through the handler and validated (docs/imports.md). */
  validate(record: Record<string, unknown>): RowOutcome {
    return validateAppointmentRow(this.schema, this.mapper.map(record));
  }

  /**
   * Writes one valid row inside the caller's transaction: finds the service, finds or creates
   * the tag, computes the times, and inserts or updates the appointment. An excluded row
   * (unknown service, address not located) has written nothing.
   */
  writeRow(row: AppointmentRow): WriteOutcome {
    const service = this.findService(row);
    if ('error' in service) return { ok: false, error: service.error };
    const geo = this.locate(row.location);
    const known = this.findTag(row);
    // A new tag needs its address located (spec part 7 rule 3); a known tag already has its QR code.
    if (known === null && geo === null) return { ok: false, error: this.notLocated(row.location) };
    const { zone } = chooseTimeZone({
      timezoneName: row.timezone_name,
      located: geo?.timezone_name ?? known?.zone ?? null,
      organization: this.organizationZone,
    });
    const times = this.times.get(row.start, row.duration, zone);
    const warnings = times.notes.length === 0 ? [] : times.notes.map((note) => `${this.mapper.label('start_date_time')}: ${note}`);
    const approximate = geo === null ? null : this.locatedWarning(row.location, geo);
    if (approximate !== null) warnings.unshift(approximate);
    this.batchNow ??= nowIso();
    const now = this.batchNow;
    const tag = known ?? this.createTag(row, geo, now);
    const tagCreated = known === null;
    const values = {
      qr_code_uuid: tag.qrCodeUuid,
      qr_code_tag_uuid: tag.tagUuid,
      service_uuid: service.uuid,
      service: service.name,
      location: row.location,
      appointment_date: times.appointment_date,
      start_date_time: times.start_date_time,
      end_date_time: times.end_date_time,
      start_utc: times.start_utc,
      end_utc: times.end_utc,
      duration: row.duration,
      timezone_name: times.timezone_name,
      job_reference_id: row.job_reference_id,
      notes: times.notes.length > 0 ? JSON.stringify(times.notes) : null,
    } satisfies Partial<AppointmentScheduleTable>;

    const org = this.options.organizationUuid;
    const reference = row.job_reference_id;
    const existing =
      reference !== null
        ? this.jobReferences.find(reference, '', () =>
            this.sql.findByReference.get({ organization_uuid: org, job_reference_id: reference }),
          )
        : this.sql.findByTagStartService.get({
            organization_uuid: org,
            qr_code_tag_uuid: tag.tagUuid,
            start_utc: times.start_utc,
            service_uuid: service.uuid,
          });
    const collect = this.options.collectSchedules === true;
    if (existing) {
      if (UPSERT_COLUMNS.every((column) => existing[column] === values[column])) {
        return { ok: true, uuid: existing.uuid, kind: 'unchanged', tagCreated, schedule: collect ? toSchedule(existing) : null, warnings };
      }
      this.sql.updateSchedule.run({ ...values, updated_on: now, uuid: existing.uuid });
      return {
        ok: true,
        uuid: existing.uuid,
        kind: 'updated',
        tagCreated,
        schedule: collect ? toSchedule({ ...existing, ...values, updated_on: now }) : null,
        warnings,
      };
    }
    const inserted: AppointmentScheduleTable = {
      uuid: uuid7(),
      organization_uuid: org,
      ...values,
      all_day: 0,
      no_date_time_provided: 0,
      type: 'SERVICE',
      created_on: now,
      updated_on: now,
    };
    this.sql.insertSchedule.run({ ...inserted });
    if (reference !== null) this.jobReferences.add(reference);
    return { ok: true, uuid: inserted.uuid, kind: 'inserted', tagCreated, schedule: collect ? toSchedule(inserted) : null, warnings };
  }

  private loadCatalog(): void {
    const entries = this.catalog.all({ organization_uuid: this.options.organizationUuid });
    this.byCode = new Map(entries.filter((e) => e.code_key !== null).map((e) => [e.code_key ?? '', e]));
    this.byName = new Map(entries.map((e) => [e.name_key, e]));
  }

  /** By service_code when given (the name, if also given, must agree), else by service name; both ignore case. */
  private findService(row: AppointmentRow): CatalogEntry | { error: string } {
    const codeLabel = this.mapper.label('service_code');
    const nameLabel = this.mapper.label('service');
    if (row.service_code !== null) {
      const byCode = this.byCode.get(catalogKey(row.service_code));
      if (!byCode)
        return { error: `${codeLabel} "${row.service_code}" is not in this organization's service catalog. ${this.catalogHint('code')}` };
      if (row.service !== null && catalogKey(row.service) !== byCode.name_key) {
        return {
          error: `${codeLabel} "${row.service_code}" is the service "${byCode.name}", but ${nameLabel} says "${row.service}". Correct one of them, or leave ${nameLabel} empty.`,
        };
      }
      return byCode;
    }
    const byName = this.byName.get(catalogKey(row.service ?? ''));
    if (!byName)
      return { error: `${nameLabel} "${row.service ?? ''}" is not in this organization's service catalog. ${this.catalogHint('name')}` };
    return byName;
  }

  private catalogHint(by: 'code' | 'name'): string {
    const known = [...(by === 'code' ? this.byCode : this.byName).values()].map((e) => (by === 'code' ? e.code : e.name));
    if (known.length === 0) return 'The catalog is empty: add the service under Services (POST /api/services) first.';
    const shown = known.slice(0, 12).join(', ');
    return `Known ${by === 'code' ? 'codes' : 'services'}: ${shown}${known.length > 12 ? ', …' : ''}. Add it under Services (POST /api/services) or correct the spelling.`;
  }

  /** The row's error for an address that cannot be located, with the geocoder's reason (remembered: files repeat addresses). */
  private notLocated(location: string): string {
    let error = this.notLocatedErrors.get(location);
    if (error === undefined) {
      error = notLocatedError(this.options.geocoder, { location });
      if (this.notLocatedErrors.size >= GEOCODE_CACHE_LIMIT) this.notLocatedErrors.clear();
      this.notLocatedErrors.set(location, error);
    }
    return error;
  }

  /** The warning for an address located by its place rather than as written (remembered, as locate's answer is). */
  private locatedWarning(location: string, geo: GeoResult): string | null {
    let warning = this.locatedWarnings.get(location);
    if (warning === undefined) {
      warning = locatedWarning(this.options.geocoder, { location }, geo);
      if (this.locatedWarnings.size >= GEOCODE_CACHE_LIMIT) this.locatedWarnings.clear();
      this.locatedWarnings.set(location, warning);
    }
    return warning;
  }

  private locate(location: string): GeoResult | null {
    let geo = this.located.get(location);
    if (geo === undefined) {
      geo = this.options.geocoder.locate({ location });
      if (this.located.size >= GEOCODE_CACHE_LIMIT) this.located.clear();
      this.located.set(location, geo);
    }
    return geo;
  }

  /** The tag (tag_name, tag_number) with its QR code and that code's zone, or null when the organization has none. */
  private findTag(row: AppointmentRow): KnownTag | null {
    const key = `${row.tag_name}\u0000${row.tag_number}`;
    const cached = this.tags.get(key);
    if (cached) return cached;
    const found = this.sql.findTag.get({
      organization_uuid: this.options.organizationUuid,
      tag_name: row.tag_name,
      tag_number: row.tag_number,
    });
    if (!found) return null;
    const tag = { tagUuid: found.uuid, qrCodeUuid: found.qr_code_uuid, zone: this.liveQrCodeZone(found.qr_code_uuid) };
    this.remember(key, tag);
    return tag;
  }

  /** The zone of a tag's QR code address; a soft-deleted one is restored (it has an appointment again). Many tags share an address. */
  private liveQrCodeZone(uuid: string): string | null {
    const cached = this.qrCodeZones.get(uuid);
    if (cached !== undefined) return cached;
    const state = this.sql.qrCodeState.get({ uuid });
    if (state?.deleted_on) this.sql.restoreQrCode.run({ uuid, now: nowIso() });
    const zone = state?.timezone_name ?? null;
    if (this.qrCodeZones.size >= TAG_CACHE_LIMIT) this.qrCodeZones.clear();
    this.qrCodeZones.set(uuid, zone);
    return zone;
  }

  /** A missing tag is created on the QR code address at `location` (found by name and location, or created). */
  private createTag(row: AppointmentRow, geo: GeoResult | null, now: string): KnownTag {
    if (geo === null) throw new Error('createTag needs a located address');
    const qrCodeUuid = this.findOrCreateQrCode(row.location, geo, now);
    const tagUuid = uuid7();
    this.sql.insertTag.run({
      uuid: tagUuid,
      organization_uuid: this.options.organizationUuid,
      qr_code_uuid: qrCodeUuid,
      tag_name: row.tag_name,
      tag_number: row.tag_number,
      tag_display_name: `${row.tag_name} ${row.tag_number}`,
      created_on: now,
    });
    const tag = { tagUuid, qrCodeUuid, zone: geo.timezone_name };
    this.remember(`${row.tag_name}\u0000${row.tag_number}`, tag);
    return tag;
  }

  private remember(key: string, tag: KnownTag): void {
    if (this.tags.size >= TAG_CACHE_LIMIT) this.tags.clear();
    this.tags.set(key, tag);
  }

  private findOrCreateQrCode(location: string, geo: GeoResult, now: string): string {
    const existing = this.sql.findQrCodeAt.get({ organization_uuid: this.options.organizationUuid, location });
    if (existing) {
      if (existing.deleted_on !== null) this.sql.restoreQrCode.run({ uuid: existing.uuid, now });
      return existing.uuid;
    }
    const uuid = uuid7();
    const rowid = this.sql.insertQrCode.insert({
      uuid,
      organization_uuid: this.options.organizationUuid,
      type: 'SITE',
      name: location,
      label: null,
      location,
      address_line_1: null,
      suburb: geo.suburb,
      state: geo.state,
      postcode: geo.postcode,
      country: geo.country,
      latitude: geo.latitude,
      longitude: geo.longitude,
      precision: geo.precision,
      timezone_name: geo.timezone_name,
      data: null,
      qr_code_name: null,
      external_reference_id: null,
      created_on: now,
      updated_on: now,
      deleted_on: null,
    });
    this.firstNewQrCode ??= rowid;
    return uuid;
  }
}

export function createAppointmentImporter(db: SyncDb, options: AppointmentImportOptions): AppointmentImporter {
  return new AppointmentImporter(db, options);
}
