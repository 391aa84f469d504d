import type { Migration } from 'kysely/migration';
import * as core from './001_core.ts';
import * as qrcodes from './002_qrcodes.ts';
import * as imports from './003_imports.ts';
import * as webhooks from './004_webhooks.ts';
import * as appointments from './005_appointments.ts';
import * as inboxes from './006_inboxes.ts';
import * as inboxDroppedMessages from './007_inbox_dropped_messages.ts';
import * as dateOrder from './008_date_order.ts';
import * as deliveryRequests from './009_delivery_requests.ts';
import * as importAttempts from './010_import_attempts.ts';
import * as queryIndexes from './011_query_indexes.ts';
import * as importKindIds from './012_import_kind_ids.ts';
import * as catalogVersion from './013_catalog_version.ts';
import * as qrcodeSearch from './014_qrcode_search.ts';
import * as organizationIndexes from './016_organization_indexes.ts';
import * as endpointFaults from './017_endpoint_faults.ts';
import * as attemptAnswers from './019_attempt_answers_and_events.ts';
import * as importHandlerKinds from './020_import_handler_kinds.ts';
import * as importDrafts from './022_import_drafts.ts';
import * as taskSearch from './024_task_search.ts';
import * as importDraftCounts from './025_import_draft_counts.ts';
import * as excludedRowNumbers from './026_excluded_row_numbers.ts';
import * as sandboxDiagnostics from './027_sandbox_diagnostics.ts';
import * as inboxForwardAnswers from './028_inbox_forward_answers.ts';
import * as perMinuteIndexes from './029_per_minute_indexes.ts';
import * as workbookFormats from './030_workbook_formats.ts';

/** Numbered migrations, applied in order at start. Append; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_qrcodes': qrcodes,
  '003_imports': imports,
  '004_webhooks': webhooks,
  '005_appointments': appointments,
  '006_inboxes': inboxes,
  '007_inbox_dropped_messages': inboxDroppedMessages,
  '008_date_order': dateOrder,
  '009_delivery_requests': deliveryRequests,
  '010_import_attempts': importAttempts,
  '011_query_indexes': queryIndexes,
  '012_import_kind_ids': importKindIds,
  '013_catalog_version': catalogVersion,
  '014_qrcode_search': qrcodeSearch,
  '016_organization_indexes': organizationIndexes,
  '017_endpoint_faults': endpointFaults,
  '019_attempt_answers_and_events': attemptAnswers,
  '020_import_handler_kinds': importHandlerKinds,
  '022_import_drafts': importDrafts,
  '024_task_search': taskSearch,
  '025_import_draft_counts': importDraftCounts,
  '026_excluded_row_numbers': excludedRowNumbers,
  '027_sandbox_diagnostics': sandboxDiagnostics,
  '028_inbox_forward_answers': inboxForwardAnswers,
  '029_per_minute_indexes': perMinuteIndexes,
  '030_workbook_formats': workbookFormats,
};
