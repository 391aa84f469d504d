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

export interface OrganizationSettingsTable {
  organization_uuid: string;
  /** null: the server's default (serve --retry-schedule). */
  webhook_retry_schedule: 'standard' | 'fast' | null;
  allow_http_webhooks: number;
  updated_on: string;
  /** How imports read dates such as 02/12/2026; null: from the organization's default time zone (server/settings/date-order.ts). */
  date_order?: 'day_first' | 'month_first' | 'iso_only' | null;
  /** Seconds a webhook may fail continuously before it is disabled; 0 never; null the default. */
  webhook_auto_disable_after_s?: number | null;
  /** Seconds one delivery attempt may take; null: the server's default. */
  webhook_timeout_s?: number | null;
}

export interface WebhookTable {
  seq: Generated<number>;
  uuid: string;
  organization_uuid: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  is_active: number;
  secret: string;
  /** Date, space, time with microseconds (docs/webhooks.md). */
  created_on: string;
  updated_on: string;
  deleted_on: string | null;
  /** Its own retry schedule: a preset name or a JSON list of delays in ms; null: the organization's. */
  retry_schedule?: string | null;
  /** Since when (dispatcher clock, epoch ms) every attempt failed; null after a success. */
  failing_since_ms?: number | null;
  /** Why it was disabled automatically, and when (ISO 8601); null when it was not. */
  disabled_reason?: string | null;
  disabled_on?: string | null;
  /** 1: its deliveries also carry the X-Sandbox-* diagnostic headers; 0: only what the service sends. */
  sandbox_diagnostics?: number;
}

export interface ServiceConfirmationTable {
  seq: Generated<number>;
  uuid: string;
  organization_uuid: string;
  qr_code_uuid: string;
  user_uuid: string;
  status: 'CHECK_IN' | 'CHECK_OUT' | 'DELIVERY';
  /** The full record of docs/webhooks.md as JSON. */
  data: string;
  created_on: string;
}

export interface WebhookEventTable {
  seq: Generated<number>;
  /** evt_<uuid> */
  id: string;
  organization_uuid: string;
  type: string;
  created_at: string;
  /** The plaintext envelope (docs/webhooks.md), exactly the bytes that are signed and encrypted. */
  envelope: string;
}

export interface WebhookDeliveryTable {
  seq: Generated<number>;
  delivery_id: string;
  event_id: string;
  webhook_uuid: string;
  organization_uuid: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  /** attempt_count when the delivery was (re)queued; the retry schedule counts from here. */
  schedule_base: number;
  /** Epoch milliseconds; null unless pending. */
  next_attempt_at: number | null;
  /** 1 while an attempt is being sent. */
  in_flight: number;
  /** Why a delivery stopped without a successful attempt (schedule used up, webhook deactivated, URL refused). */
  status_reason: string | null;
  /** When the attempt in flight started (ISO); recovery logs it as interrupted after a crash. */
  claimed_on: string | null;
  created_on: string;
  updated_on: string;
}

/** The import engine's checkpoint of one import task (server/imports). */
export interface ImportJobTable {
  task_uuid: string;
  /** The import kind's id (server/imports/kinds.ts): qrcodes or appointments. Migration 012 renamed the module paths stored before. */
  kind: string;
  organization_uuid: string;
  /** Path of the stored upload, relative to the data dir. */
  upload_file: string;
  format: 'csv' | 'xlsx' | 'xls' | 'ods' | 'json';
  /** JSON: the kind's options and the run mode. */
  options: string;
  /** JSON array of the file's header cells as given, once read. */
  headers: string | null;
  /** Data rows committed so far: a resumed import skips these. */
  rows_done: Generated<number>;
  /** JSON object of the kind's counters so far. */
  counts: Generated<string>;
  excluded_count: Generated<number>;
  /** Runs started and not ended cleanly (a crash or kill); 2 means it is not resumed again. */
  attempts: Generated<number>;
  /** Who asked to cancel it (an API key's name): its run stops at the next batch. */
  cancel_requested_by: string | null;
  /** The task that retried this failed one; its upload passed to that task. */
  retried_by: string | null;
  created_on: string;
  updated_on: string;
}

export interface WebhookDeliveryAttemptTable {
  seq: Generated<number>;
  delivery_id: string;
  attempt: number;
  attempted_on: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  /** JSON object of the request headers as sent; null for attempts made before they were recorded. */
  request_headers?: string | null;
  /** The request body as sent ({"payload": ...}, encrypted). */
  request_body?: string | null;
  /** JSON object of the answer's headers; null when no answer came. */
  response_headers?: string | null;
  /** The answer's body as text, up to RESPONSE_BODY_BYTES. */
  response_body?: string | null;
  response_body_truncated?: Generated<number>;
}

export interface InboxTable {
  uuid: string;
  organization_uuid: string;
  name: string;
  /** JSON array of secrets to verify signatures with (several, for rotation). */
  secrets: string;
  /** JSON array of answer rules (server/receiver/rule-schemas.ts), first match wins. */
  response_rules: string;
  /** Requests received since the rules were set, counted only while a rule matches by message number. */
  rules_message_count: Generated<number>;
  forward_to: string | null;
  /** 1: forward_to is called while the sender waits, and its answer is the inbox's answer. */
  forward_answers: Generated<number>;
  /** Oldest messages deleted to keep the inbox under the message cap. */
  dropped_messages: Generated<number>;
  created_on: string;
  updated_on: string;
}

export interface InboxMessageTable {
  seq: Generated<number>;
  uuid: string;
  inbox_uuid: string;
  organization_uuid: string;
  received_on: string;
  method: string;
  /** Path and query string as requested. */
  path: string;
  /** JSON array of [name, value] pairs, as sent (order, case and repeats kept). */
  raw_headers: string;
  /** The exact body bytes (at most the receiver's cap). */
  body: Buffer;
  body_truncated: number;
  remote_address: string | null;
  /** 0 until the verdicts are written (a crash in between leaves the raw request). */
  analyzed: number;
  decrypted: number;
  decryption_problem: string | null;
  decryption_error: string | null;
  signature_status: 'valid' | 'invalid' | 'unknown';
  verified_with: string | null;
  /** JSON array of doctor hints. */
  hints: string;
  /** Lowercase hex of a well-formed signature header. */
  signature: string | null;
  delivery_id: string | null;
  event_id: string | null;
  event_type: string | null;
  plaintext: string | null;
  duplicate_of: string | null;
  duplicate_by: string | null;
  /** How the inbox answered: ok, rejected, too_large, fault_status, dropped, client_gone, forwarded, forward_failed. */
  answer: string | null;
  answered_status: number | null;
  answered_after_ms: number | null;
  /** Which of the inbox's rules decided the answer (1 for the first); null: none matched. */
  answered_by_rule?: number | null;
  /** The attempt number of the delivery it was, from the sandbox's own records or an X-Sandbox-Attempt header; null: unknown. */
  attempt?: number | null;
}

export interface InboxRelayTable {
  seq: Generated<number>;
  uuid: string;
  message_uuid: string;
  kind: 'forward' | 'replay';
  url: string;
  requested_on: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  /** JSON array of [name, value] pairs of the answer. */
  response_headers: string | null;
  response_excerpt: string | null;
}

/** Every excluded row of an import, for the error report. */
export interface ImportExcludedRowTable {
  task_uuid: string;
  /** 0-based position among the data rows. */
  row_index: number;
  /** Where the row is in its file (imports/sources/row-numbers.ts); null only for a row stored without it. */
  row_number: number | null;
  error: string;
  /** JSON: the `row` object of results (the kind's echo of the row). */
  echo: string;
  /** JSON: the row's cells as given (array aligned with the headers, or the JSON object). */
  cells: string;
}

export interface ImportDraftTable {
  uuid: string;
  organization_uuid: string;
  /** The import kind's id (qrcodes, appointments). */
  kind: string;
  /** The import whose excluded rows the draft holds; null for a preview's rows. */
  source_task_uuid: string | null;
  /** JSON: the job options the draft's rows are checked and imported with. */
  options: string;
  status: 'open' | 'importing';
  /** The import of the fixed rows, running or last run. */
  import_task_uuid: string | null;
  /** JSON: what became of the last import of the fixed rows. */
  last_import: string | null;
  created_by_uuid: string;
  created_on: string;
  updated_on: string;
  /** Rows not deleted, open rows with a problem, imported rows (kept by store.ts and a trigger). */
  row_count: number;
  problem_count: number;
  imported_count: number;
  /** 0 while the rows of a big draft are still being written (the draft is not shown yet). */
  ready: number;
}

export interface ImportDraftRowTable {
  draft_uuid: string;
  /** The row's place in the draft, from 1. */
  row_id: number;
  /** The row's number in the file it came from, when known. */
  row_number: number | null;
  /** JSON: { column: text } over the kind's columns. */
  cells: string;
  /** The cells' text in lower case, for the text filter. */
  search_text: string;
  problem: string | null;
  problem_column: string | null;
  state: 'open' | 'deleted' | 'imported';
  /** 0: changed by a replace over more rows than are checked at once; the import checks it. */
  checked: number;
  /** The row's index in the running import of the fixed rows. */
  import_index: number | null;
}

export interface ImportDraftEditTable {
  draft_uuid: string;
  seq: number;
  action: string;
  rows: number;
  created_on: string;
  /** 0 while a change over many rows is written in chunks; one left so by a stopped server is undone. */
  complete: number;
}

/** A draft's counts per block of 1,024 row ids (migration 025): the n-th row found without counting. */
export interface ImportDraftBlockTable {
  draft_uuid: string;
  block: number;
  rows: number;
  problems: number;
}

export interface ImportDraftHistoryTable {
  draft_uuid: string;
  seq: number;
  row_id: number;
  cells: string;
  search_text: string;
  problem: string | null;
  problem_column: string | null;
  state: string;
  checked: number;
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
  /** The import kind whose files it reads (imports/schemas.ts importKindIds). */
  kind: Generated<string>;
  /** JSON object: a file's column title -> a field of docs/imports.md. */
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

/** Counters that writers move with their change (migration 013): 'service_catalog' (server/services/store.ts). */
export interface ChangeCounterTable {
  name: string;
  value: number;
}

/** The QR code search's full-text index (migration 014): the searched fields, keyed by the QR code's rowid. */
export interface QrCodeSearchTable {
  name: string;
  location: string;
  label: string | null;
  external_reference_id: string | null;
}

/** Every table of the app. Each capability's migration adds its own tables here. */
export interface Database {
  organizations: OrganizationTable;
  api_keys: ApiKeyTable;
  background_tasks: BackgroundTaskTable;
  qrcodes: QrCodeTable;
  qr_code_tags: QrCodeTagTable;
  qrcode_search: QrCodeSearchTable;
  organization_settings: OrganizationSettingsTable;
  webhooks: WebhookTable;
  service_confirmations: ServiceConfirmationTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
  inboxes: InboxTable;
  inbox_messages: InboxMessageTable;
  inbox_relays: InboxRelayTable;
  import_jobs: ImportJobTable;
  import_excluded_rows: ImportExcludedRowTable;
  import_drafts: ImportDraftTable;
  import_draft_rows: ImportDraftRowTable;
  import_draft_edits: ImportDraftEditTable;
  import_draft_history: ImportDraftHistoryTable;
  import_draft_blocks: ImportDraftBlockTable;
  services: ServiceTable;
  service_categories: ServiceCategoryTable;
  import_handlers: ImportHandlerTable;
  appointment_schedules: AppointmentScheduleTable;
  appointment_import_upserts: AppointmentImportUpsertTable;
  change_counters: ChangeCounterTable;
}
