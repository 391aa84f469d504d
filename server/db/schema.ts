import type { Generated } from 'kysely';

export interface OrganizationTable {
  uuid: string;
  name: string;
  default_timezone: string;
  created_on: string;
}

export interface ApiKeyTable {
  uuid: string;
  api_key: string;
  secret_hash: string;
  role: 'admin' | 'editor' | 'viewer';
  name: string;
  organization_uuid: string;
  created_on: string;
  revoked_on: string | null;
}

export interface BackgroundTaskTable {
  seq: Generated<number>;
  uuid: string;
  task_id: string;
  task_type: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  progress: number;
  created_by_uuid: string;
  metadata: string | null;
  organization_uuid: string;
  results: string | null;
  error_message: string | null;
  created_on: string;
  updated_on: string;
}

export interface QrCodeTable {
  uuid: string;
  organization_uuid: string;
  type: string;
  name: string;
  label: string | null;
  location: string;
  address_line_1: string | null;
  suburb: string | null;
  state: string | null;
  postcode: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  /** How closely the address was located; see server/geocoding. */
  precision: string | null;
  timezone_name: string | null;
  /** The QR code's data payload (free text). */
  data: string | null;
  qr_code_name: string | null;
  external_reference_id: string | null;
  created_on: string;
  updated_on: string;
  /** Soft delete: a deleted record reads as 404 and is restored by a matching import. */
  deleted_on: string | null;
}

export interface QrCodeTagTable {
  uuid: string;
  organization_uuid: string;
  qr_code_uuid: string;
  tag_name: string;
  tag_number: string;
  tag_display_name: string;
  created_on: string;
}

export interface ServiceTable {
  uuid: string;
  organization_uuid: string;
  name: string;
  /** name, trimmed and lower-cased: names are unique per organization ignoring case. */
  name_key: string;
  code: string | null;
  code_key: string | null;
  created_on: string;
  updated_on: string;
  deleted_on: string | null;
}

export interface ServiceCategoryTable {
  uuid: string;
  service_uuid: string;
  name: string;
  position: number;
}

export interface ImportHandlerTable {
  uuid: string;
  organization_uuid: string;
  name: string;
  slug: string;
  /** JSON object: a file's column title -> a field of spec 2.3. */
  mapping: string;
  created_on: string;
  updated_on: string;
}

export interface AppointmentScheduleTable {
  uuid: string;
  organization_uuid: string;
  qr_code_uuid: string;
  qr_code_tag_uuid: string;
  service_uuid: string;
  service: string;
  location: string;
  appointment_date: string;
  /** ISO 8601 with the zone's offset. */
  start_date_time: string;
  end_date_time: string;
  /** The same instants in UTC, for ordering, range filters and the upsert key. */
  start_utc: string;
  end_utc: string;
  duration: number;
  timezone_name: string;
  all_day: number;
  no_date_time_provided: number;
  job_reference_id: string | null;
  type: string;
  /** JSON array of notes (DST adjustments), or null. */
  notes: string | null;
  created_on: string;
  updated_on: string;
}

export interface AppointmentImportUpsertTable {
  collect_key: string;
  row_index: number;
  schedule_uuid: string;
}

/** The import engine's checkpoint of one import task (server/imports). */
export interface ImportJobTable {
  task_uuid: string;
  /** The import kind's module, relative to server/, with its export: qrcodes/import-kind.ts#qrCodeImportKind */
  kind: string;
  organization_uuid: string;
  /** Path of the stored upload, relative to the data dir. */
  upload_file: string;
  format: 'csv' | 'xlsx' | 'json';
  /** JSON: the kind's options and the run mode. */
  options: string;
  /** JSON array of the file's header cells as given, once read. */
  headers: string | null;
  /** Data rows committed so far: a resumed import skips these. */
  rows_done: Generated<number>;
  /** JSON object of the kind's counters so far. */
  counts: Generated<string>;
  excluded_count: Generated<number>;
  created_on: string;
  updated_on: string;
}

/** Every excluded row of an import, for the error report. */
export interface ImportExcludedRowTable {
  task_uuid: string;
  /** 0-based position among the data rows. */
  row_index: number;
  error: string;
  /** JSON: the `row` object of results (the kind's echo of the row). */
  echo: string;
  /** JSON: the row's cells as given (array aligned with the headers, or the JSON object). */
  cells: string;
}

/** Every table of the app. Each capability's migration adds its own tables here. */
export interface Database {
  organizations: OrganizationTable;
  api_keys: ApiKeyTable;
  background_tasks: BackgroundTaskTable;
  qrcodes: QrCodeTable;
  qr_code_tags: QrCodeTagTable;
  services: ServiceTable;
  service_categories: ServiceCategoryTable;
  import_handlers: ImportHandlerTable;
  appointment_schedules: AppointmentScheduleTable;
  appointment_import_upserts: AppointmentImportUpsertTable;
  import_jobs: ImportJobTable;
  import_excluded_rows: ImportExcludedRowTable;
}
