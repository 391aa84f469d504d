import type { ImportKind } from '../imports/kind.ts';
import { defineImportKind } from '../imports/kind-entry.ts';
import { APPOINTMENT_FIELDS } from './fields.ts';
import type { AppointmentJobOptions } from './import-kind.ts';
import { appointmentImportTaskResultsSchema } from './import-results.ts';

/** Appointment schedules in the import-kind registry (imports/kinds.ts); import-kind.ts is the kind itself. */
export const appointmentImportEntry = defineImportKind({
  id: 'appointments',
  label: 'Appointments',
  inASentence: 'appointments',
  fileNoun: 'an appointments file',
  checks: 'every row checked, addresses located, services and tags looked up, times computed',
  tasks: [
    {
      type: 'APPOINTMENT_IMPORT',
      source: 'any',
      label: 'Appointment import',
      results: appointmentImportTaskResultsSchema,
      schemaId: 'AppointmentImportTask',
      description: 'An appointment schedule import (POST /api/appointment_schedule/bulk)',
      // `upserted` is not shown: it is inserted + updated + unchanged.
      counters: [
        { key: 'inserted', label: 'inserted' },
        { key: 'updated', label: 'updated' },
        { key: 'unchanged', label: 'already up to date' },
        { key: 'excluded', label: 'excluded', always: true },
        { key: 'tags_created', label: 'tags created' },
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
      excludedList: 'excluded_appointments',
    },
  ],
  paths: {
    upload: '/api/appointment_schedule/bulk',
    template: '/api/appointment_schedule/bulk/template',
    errorReport: '/api/appointment_schedule/bulk/errors/{background_task_uuid}',
  },
  templateFileName: 'appointment_schedule_template.csv',
  usesHandlers: true,
  handlerColumns: APPOINTMENT_FIELDS,
  handlerColumnsNoun: 'appointment fields',
  jsonFileAsBody: false,
  mapsResults: false,
  records: { guiPath: '/appointments', label: 'View the appointments' },
  // Five indexes written at random places: 32 MB keeps the pages a batch touches instead of reading
  // them again and spilling them to the WAL twice (200,000 rows: 12.3 s of worker CPU instead of 14.1 s).
  workerCacheMb: 32,
  previewOptions: (handler) =>
    ({
      handler_slug: handler.slug,
      // A resolved handler maps titles to appointment fields (import-handlers/handlers.ts).
      columnAliases: handler.mapping as AppointmentJobOptions['columnAliases'],
      collect_key: null,
    }) satisfies AppointmentJobOptions,
  // Sync and dry runs collect the upserted schedules for their answer; a background run collects none.
  backgroundOptions: (options) => ({ ...options, collect_key: null }),
  load: async () => (await import('./import-kind.ts')).appointmentImportKind as ImportKind,
});
