import type { ImportKind } from '../imports/kind.ts';
import type { ImportKindEntry } from '../imports/kind-entry.ts';
import type { AppointmentJobOptions } from './import-kind.ts';

/** Appointment schedules in the import-kind registry (imports/kinds.ts); import-kind.ts is the kind itself. */
export const appointmentImportEntry: ImportKindEntry = {
  id: 'appointments',
  label: 'Appointments',
  taskTypes: ['APPOINTMENT_IMPORT'],
  paths: {
    upload: '/api/appointment_schedule/bulk',
    template: '/api/appointment_schedule/bulk/template',
    errorReport: '/api/appointment_schedule/bulk/errors/{background_task_uuid}',
  },
  templateFileName: 'appointment_schedule_template.csv',
  usesHandlers: true,
  previewOptions: (handler) =>
    ({ handler_slug: handler.slug, columnAliases: handler.mapping, collect_key: null }) satisfies AppointmentJobOptions,
  // Sync and dry runs collect the upserted schedules for their answer; a background run collects none.
  backgroundOptions: (options) => ({ ...options, collect_key: null }),
  load: async () => (await import('./import-kind.ts')).appointmentImportKind as ImportKind,
};
