import { z } from 'zod';
import { dateOrdersResultField, dryRunFields, importResultFields, resultCount, sandboxCount } from '../imports/engine/result-fields.ts';
import { appointmentImportResultSchema, appointmentScheduleSchema, excludedAppointmentSchema } from './schemas.ts';

/** Results of an appointment import task (APPOINTMENT_IMPORT), JSON or file. */
export const appointmentImportTaskResultsSchema = z
  .object({
    upserted: resultCount('Rows written: inserted + updated + unchanged'),
    excluded: resultCount('Every excluded row'),
    excluded_appointments: z
      .array(excludedAppointmentSchema)
      .describe('The first 1,000 excluded rows; all of them are in the error report'),
    inserted: sandboxCount('New appointment schedules'),
    updated: sandboxCount('Existing schedules changed (same job_reference_id)'),
    unchanged: sandboxCount('Existing schedules the row matched exactly'),
    tags_created: sandboxCount('New QR code tags'),
    date_orders: dateOrdersResultField,
    ...importResultFields,
  })
  .meta({ id: 'AppointmentImportTaskResults' });
export type AppointmentImportTaskResults = z.infer<typeof appointmentImportTaskResultsSchema>;

/** dry_run=true: sync, the sync answer; background, the task results with the first schedules it would write. */
export const appointmentImportDryRunSchema = z
  .union([
    appointmentImportResultSchema.extend(dryRunFields),
    appointmentImportTaskResultsSchema.extend({ appointment_schedules_upserted: z.array(appointmentScheduleSchema), ...dryRunFields }),
  ])
  .meta({ id: 'AppointmentImportDryRun' });
