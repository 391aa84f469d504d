import type { ImportKind } from '../imports/kind.ts';
import { defineImportKind } from '../imports/kind-entry.ts';
import { SERVICE_IMPORT_COLUMNS } from './import-row.ts';
import { SERVICE_IMPORT_ADDITION, serviceImportResultsSchema } from './import-results.ts';

/** The service catalog in the import-kind registry (imports/kinds.ts); import-kind.ts is the kind itself. A sandbox addition. */
export const serviceImportEntry = defineImportKind({
  id: 'services',
  label: 'Services (catalog)',
  inASentence: 'services of the catalog',
  fileNoun: 'a service catalog file',
  checks: 'every row checked, names and codes compared with the catalog',
  tasks: [
    {
      type: 'SERVICE_IMPORT',
      source: 'any',
      label: 'Service catalog import',
      results: serviceImportResultsSchema,
      schemaId: 'ServiceImportTask',
      description: `An import of the organization's service catalog (POST /api/services/bulk). ${SERVICE_IMPORT_ADDITION}`,
      counters: [
        { key: 'inserted', label: 'inserted' },
        { key: 'updated', label: 'updated' },
        { key: 'unchanged', label: 'already up to date' },
        { key: 'excluded', label: 'excluded', always: true },
        { key: 'warned', label: 'imported with a warning' },
      ],
      summary: [
        { key: 'inserted', label: 'inserted', always: true },
        { key: 'updated', label: 'updated' },
        { key: 'unchanged', label: 'unchanged' },
        { key: 'excluded', label: 'excluded', always: true },
      ],
      written: ['inserted', 'updated', 'unchanged'],
      excludedCount: 'excluded',
      excludedList: 'excluded_services',
    },
  ],
  paths: {
    upload: '/api/services/bulk',
    template: '/api/services/bulk/template',
    errorReport: '/api/services/bulk/{background_task_uuid}/errors',
  },
  templateFileName: 'service-catalog-template.csv',
  usesHandlers: false,
  handlerColumns: SERVICE_IMPORT_COLUMNS,
  handlerColumnsNoun: 'service import columns',
  jsonFileAsBody: true,
  mapsResults: false,
  records: { guiPath: '/appointments/services', label: 'View the services' },
  previewOptions: () => ({}),
  backgroundOptions: (options) => options,
  load: async () => (await import('./import-kind.ts')).serviceImportKind as ImportKind,
});
