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
  import_jobs: ImportJobTable;
  import_excluded_rows: ImportExcludedRowTable;
}
