import { cellsAsText, echoAsText } from '../imports/engine/cell-text.ts';
import type { ImportKind, ImportSummary } from '../imports/kind.ts';
import { quickServiceRow, SERVICE_IMPORT_COLUMNS, type ServiceImportRow, serviceImportRowSchema } from './import-row.ts';
import type { ServiceImportResults } from './import-results.ts';
import { openServiceWriter, SERVICE_COUNTERS } from './import-writer.ts';

function results(summary: ImportSummary): ServiceImportResults {
  const count = (name: string) => summary.counts[name] ?? 0;
  return {
    inserted: count(SERVICE_COUNTERS.inserted),
    updated: count(SERVICE_COUNTERS.updated),
    unchanged: count(SERVICE_COUNTERS.unchanged),
    excluded: summary.excludedCount,
    // Each excluded row echoes the columns as text (echo below).
    excluded_services: summary.excluded as ServiceImportResults['excluded_services'],
  };
}

/** A dry run's shadow of service_categories: the categories of the organization's services (its own shadow, filled first). */
const CATEGORIES_SHADOW = {
  table: 'service_categories',
  skippedTriggers: new Set<string>(),
  sql: 'insert into temp.service_categories select * from main.service_categories where service_uuid in (select uuid from temp.services)',
};

/** The organization's service catalog (task SERVICE_IMPORT), JSON or file: a sandbox addition. */
export const serviceImportKind: ImportKind<ServiceImportRow> = {
  columns: SERVICE_IMPORT_COLUMNS,
  columnLabels: { name: 'Service name', code: 'Service code', categories: 'Categories (separated by ";")' },
  aliases: { service: 'name', service_name: 'name', service_code: 'code', category: 'categories' },
  synonyms: {
    name: ['Service', 'Service Name', 'Job Type', 'Work Type', 'Activity'],
    code: ['Service Code', 'Code', 'Service ID', 'Job Code'],
    categories: ['Category', 'Categories', 'Group', 'Groups', 'Tags'],
  },
  requiredColumns: ['name'],
  maxLength: { name: 200, code: 100 },
  exampleRow: { name: 'Roof Inspection', code: 'ROF', categories: 'Maintenance; Safety' },
  prepare: cellsAsText,
  rowSchema: serviceImportRowSchema,
  quickParse: quickServiceRow,
  echo: echoAsText(SERVICE_IMPORT_COLUMNS),
  openWriter: openServiceWriter,
  results,
  // services first: the categories' shadow is filled from it.
  writtenTables: ['services', 'service_categories', 'change_counters'],
  shadowExtras: [CATEGORIES_SHADOW],
  dryRunNotes: [
    "Nothing was written. The counts compare the rows with this sandbox's service catalog (GET /api/services).",
    'The real service has no services import: this check and the import are the sandbox’s own.',
  ],
};
