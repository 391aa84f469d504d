import { z } from 'zod';
import { SEARCH_INDEX_SHADOW } from '../qrcodes/search-index.ts';
import type { BatchWriter, ImportKind, ImportSummary, RawRecord, WriterEnv } from '../imports/kind.ts';
import { dateCellText } from '../imports/engine/row-check.ts';
import {
  APPOINTMENT_FIELD_LABELS,
  APPOINTMENT_FIELDS,
  APPOINTMENT_TEXT_MAX,
  type AppointmentField,
  REQUIRED_COLUMNS,
  REQUIRED_UNLESS,
} from './fields.ts';
import { createAppointmentImporter } from './importer.ts';
import { ColumnMapper } from './columns.ts';
import { ambiguousSlashDate, DATE_ORDERS, describeLocal, describeStartReading, isSlashedDate, parseStartDateTime } from './times.ts';
import { dateOrderReason, type DateOrderRead, jobDateOrders } from '../imports/engine/date-orders-read.ts';
import type { AppointmentRow } from './row-schema.ts';
import { organizationDateOrder } from '../settings/date-order.ts';
import type { AppointmentImportTaskResults } from './import-results.ts';
import { recordUpsertStatement, takeUpsertedSchedules } from './store.ts';
import { syncAnswer, syncAnswerExtras } from './sync-answer.ts';
import { exampleRow } from './template.ts';

/** Counters of an appointment import (results and task checkpoints). */
export const APPOINTMENT_COUNTERS = {
  upserted: 'upserted',
  inserted: 'inserted',
  updated: 'updated',
  unchanged: 'unchanged',
  tagsCreated: 'tags_created',
} as const;

/** What the bulk route passes to the worker with the job (stored as JSON with the task, so an interrupted import resumes alike). */
export const appointmentJobOptionsSchema = z.object({
  /** org_identifier of the import, for the record. */
  handler_slug: z.string(),
  /** The import handler's column title -> field mapping (empty for `default`); the engine matches headers and JSON keys with it. */
  columnAliases: z.record(z.string(), z.enum(APPOINTMENT_FIELDS)),
  /** Sync mode: the key under which each upserted row's appointment uuid is recorded, for the answer. */
  collect_key: z.string().nullable(),
  /** Record only the first rows under collect_key (a background dry run lists the first schedules, not a million). */
  collect_limit: z.number().int().positive().nullable().optional(),
  /** The organization's date order when the import was asked for: a column the file does not settle is read so, however long the task waits. */
  date_order_setting: z.enum(DATE_ORDERS).optional(),
});
export type AppointmentJobOptions = z.infer<typeof appointmentJobOptionsSchema>;

/** Other names people give the appointment columns in their own files (matched loosely, then by similarity). */
export const APPOINTMENT_SYNONYMS: Readonly<Record<AppointmentField, readonly string[]>> = {
  tag_name: ['Tag', 'Asset', 'Asset Name', 'Equipment', 'Site', 'Site Name', 'Tag Label'],
  tag_number: ['Tag #', 'Tag No', 'Tag Num', 'Tag ID', 'Asset Number', 'Asset ID', 'Asset #', 'Equipment Number'],
  start_date_time: [
    'Start',
    'Start Time',
    'Start Date',
    'Starts',
    'Date/Time',
    'Date Time',
    'Visit Start',
    'Appointment',
    'Appointment Time',
    'Scheduled',
    'Scheduled For',
    'When',
  ],
  location: ['Address', 'Site Address', 'Street Address', 'Where', 'Place', 'Venue'],
  duration: ['Length', 'Minutes', 'Duration (min)', 'Duration Minutes', 'Mins'],
  service: ['Service Name', 'Job Type', 'Work Type', 'Task', 'Activity'],
  service_code: ['Code', 'Service ID', 'Job Code', 'Work Code'],
  timezone_name: ['Time Zone', 'Timezone', 'TZ', 'Zone'],
  job_reference_id: ['Job Ref', 'Job Reference', 'Job #', 'Job No', 'Job ID', 'Reference', 'Ref', 'Work Order', 'WO #'],
  organization_uuid: ['Organization', 'Organisation', 'Org', 'Org UUID'],
};

/**
 * What the pass-through row schema gives (a copy of the record), without zod: zod's record schema
 * cost 2.9 µs of an appointment row. A `__proto__` key (which zod drops) is left to the schema.
 */
function quickRecord(record: RawRecord): RawRecord | undefined {
  const copy: RawRecord = {};
  for (const key of Object.keys(record)) {
    if (key === '__proto__') return undefined;
    copy[key] = record[key];
  }
  return copy;
}

function echo(record: RawRecord): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const field of APPOINTMENT_FIELDS) {
    const value = record[field];
    row[field] = value === undefined || value === null ? null : value instanceof Date ? dateCellText(value) : value;
  }
  return row;
}

/** The task results; appointments/import-results.ts has their schema. */
function results(summary: ImportSummary): AppointmentImportTaskResults {
  const count = (name: string) => summary.counts[name] ?? 0;
  return {
    upserted: count(APPOINTMENT_COUNTERS.upserted),
    excluded: summary.excludedCount,
    excluded_appointments: summary.excluded.map((e) => ({ index: e.index, row_number: e.row_number, data: e.row, error_message: e.error })),
    inserted: count(APPOINTMENT_COUNTERS.inserted),
    updated: count(APPOINTMENT_COUNTERS.updated),
    unchanged: count(APPOINTMENT_COUNTERS.unchanged),
    tags_created: count(APPOINTMENT_COUNTERS.tagsCreated),
    ...dateOrderResults(summary),
  };
}

/** `date_orders` of the results, when a start with slashes was read: the order and why (none for a file of year-month-day dates). */
function dateOrderResults(summary: ImportSummary): { date_orders?: DateOrderRead[] } {
  const setting = appointmentJobOptionsSchema.shape.date_order_setting.parse(summary.options.date_order_setting);
  if (!setting || (summary.counts[SLASHED_STARTS] ?? 0) === 0) return {};
  return { date_orders: jobDateOrders(summary.options, ['start_date_time'], setting) };
}

/** What identifies an appointment of an import row, column first: its job reference, else its tag, start and service. */
function appointmentIdentity(mapper: ColumnMapper, row: AppointmentRow): string {
  if (row.job_reference_id !== null) return `${mapper.label('job_reference_id')}: ${row.job_reference_id}`;
  const service = row.service_code ?? row.service ?? '';
  return `${mapper.label('tag_name')}, ${mapper.label('tag_number')}, ${mapper.label('start_date_time')} and service: ${row.tag_name} ${row.tag_number} at ${describeLocal(row.start.local)}, ${service}`;
}

/** Rows whose start was a date with slashes (a counter): only then do the results say how the date order was settled. */
const SLASHED_STARTS = 'slashed_starts';

/** How start_date_time is read, and why: as the intake settled it, else the organization's date order (when asked for, else now). */
function startDateOrder(options: Record<string, unknown>, db: WriterEnv['db'], organizationUuid: string): DateOrderRead | undefined {
  const setting = appointmentJobOptionsSchema.shape.date_order_setting.parse(options.date_order_setting);
  return jobDateOrders(options, ['start_date_time'], setting ?? organizationDateOrder(db, organizationUuid)).find(
    (read) => read.column === 'start_date_time',
  );
}

/**
 * The warning of a row whose start is a date both orders read (02/12/2026): how it was read and
 * why, and what it would be the other way. Null for any other start.
 */
function ambiguousStartWarning(mapper: ColumnMapper, value: unknown, read: DateOrderRead | undefined): string | null {
  const ambiguous = read?.order ? ambiguousSlashDate(value, read.order) : null;
  if (!read || !ambiguous) return null;
  return `${mapper.label('start_date_time')}: "${ambiguous.text}" was read ${ambiguous.read} as ${ambiguous.readAs}, ${dateOrderReason(read)}; read ${ambiguous.other} it would be ${ambiguous.otherAs}.`;
}

function openWriter(env: WriterEnv): BatchWriter<RawRecord> {
  const options = appointmentJobOptionsSchema.parse(env.options);
  const dateOrder = startDateOrder(env.options, env.db, env.organizationUuid);
  const importer = createAppointmentImporter(env.db, {
    organizationUuid: env.organizationUuid,
    geocoder: env.geocoder,
    mapping: options.columnAliases,
    recordsKeyedByField: true,
    startDateOrder: dateOrder?.order ?? 'iso_only',
  });
  const recordUpsert =
    options.collect_key === null ? null : recordUpsertStatement(env.db, options.collect_key, options.collect_limit ?? null);
  return {
    write(record, index, tally) {
      const validated = importer.validate(record);
      if (!validated.ok) return validated.error_message;
      const outcome = importer.writeRow(validated.row);
      if (!outcome.ok) return outcome.error;
      tally(APPOINTMENT_COUNTERS.upserted);
      tally(outcome.kind);
      if (outcome.tagCreated) tally(APPOINTMENT_COUNTERS.tagsCreated);
      recordUpsert?.(index, outcome.uuid);
      if (env.warn) for (const warning of outcome.warnings) env.warn(index, warning);
      if (isSlashedDate(record.start_date_time)) tally(SLASHED_STARTS);
      const ambiguous = ambiguousStartWarning(importer.mapper, record.start_date_time, dateOrder);
      if (ambiguous !== null) env.warn?.(index, ambiguous);
      env.wrote?.(index, outcome.uuid, appointmentIdentity(importer.mapper, validated.row), 'appointment');
      return null;
    },
    endBatch: () => importer.endBatch(),
  };
}

/**
 * Appointment schedules (task APPOINTMENT_IMPORT), JSON or file. Rows are validated by the
 * appointment row schema inside the writer (appointmentRowSchema, docs/imports.md), where the import
 * handler's titles are known, so the engine's schema lets every record through.
 */
export const appointmentImportKind: ImportKind<RawRecord> = {
  columns: APPOINTMENT_FIELDS,
  columnLabels: APPOINTMENT_FIELD_LABELS,
  synonyms: APPOINTMENT_SYNONYMS,
  // The bulk route checks them with the import handler's mapping (columns.ts checkHeaders), which names missing columns by the file's titles.
  requiredColumns: REQUIRED_COLUMNS,
  requiredUnless: REQUIRED_UNLESS,
  dateColumns: ['start_date_time'],
  maxLength: Object.fromEntries(
    APPOINTMENT_FIELDS.filter((field) => field !== 'start_date_time' && field !== 'duration').map((field) => [field, APPOINTMENT_TEXT_MAX]),
  ),
  exampleRow: exampleRow(''),
  rowSchema: z.record(z.string(), z.unknown()),
  quickParse: quickRecord,
  previewNotes(record, { db, organizationUuid, options }) {
    const value = record.start_date_time;
    const order = startDateOrder(options, db, organizationUuid)?.order ?? 'iso_only';
    const parsed = parseStartDateTime(typeof value === 'string' ? value.trim() : value, 'start_date_time', order);
    if (!parsed.ok) return [];
    const mapper = new ColumnMapper(appointmentJobOptionsSchema.shape.columnAliases.catch({}).parse(options.columnAliases), {
      titlesOnly: true,
    });
    return [`${mapper.label('start_date_time')}: ${describeStartReading(value, parsed.value, order)}.`];
  },
  echo,
  openWriter,
  results,
  writtenTables: ['qrcodes', 'qr_code_tags', 'appointment_schedules', 'appointment_import_upserts'],
  shadowExtras: [SEARCH_INDEX_SHADOW],
  async dryRunAnswer({ db, taskUuid, results: taskResults, sync, options }) {
    const collectKey = appointmentJobOptionsSchema.parse(options).collect_key;
    if (collectKey === null) return taskResults;
    if (sync) return { ...(await syncAnswer(db.kysely, taskUuid, collectKey)), ...syncAnswerExtras(taskResults) };
    return { ...taskResults, appointment_schedules_upserted: await takeUpsertedSchedules(db.kysely, collectKey) };
  },
  dryRunNotes: [
    'Nothing was written. Services are matched with the service catalog of this sandbox (GET /api/services); the real service checks its own catalog, so a service unknown here may exist there, and the reverse.',
    'Tags and QR codes are matched with those in this sandbox; on the real service a row counted here as inserted may update an appointment it already has.',
    'Addresses are located by the offline gazetteer here; the real service uses its own geocoder and may locate addresses this check could not.',
  ],
};
