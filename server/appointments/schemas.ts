import { dateOrdersResultField, importResultFields } from '../imports/engine/result-fields.ts';
import { z } from 'zod';
import { typedText } from '../text/typed-text.ts';
import { organizationListQuery, pageSchema } from '../http/pagination.ts';
import { organizationRecordSchema } from '../http/record-schema.ts';
import { sandboxOnly } from '../http/sandbox-only.ts';
import { textEncodingSchema } from '../imports/text-encodings.ts';
import { rowNumberSchema } from '../imports/engine/row-number-schema.ts';
import { APPOINTMENT_FIELDS } from './fields.ts';

/** The service's appointment schedule object (docs/imports.md), plus uuid, the zone, the address and DST notes. */
/** The service's appointment schedule object, and what this sandbox adds to it (marked x-sandbox). */
export const appointmentScheduleSchema = organizationRecordSchema(
  'AppointmentSchedule',
  {
    qr_code_uuid: z.string(),
    qr_code_tag_uuid: z.string(),
    service: z.string().describe('Service name'),
    service_uuid: sandboxOnly(z.string()),
    appointment_date: z.string().describe('Local date of the start, YYYY-MM-DD'),
    start_date_time: z.string().describe('ISO 8601 with the UTC offset of the zone, e.g. 2026-03-02T09:00:00+11:00'),
    end_date_time: z.string().describe('start + duration in real elapsed minutes, ISO 8601 with the offset then in force'),
    duration: z.number().int().describe('Minutes'),
    all_day: z.boolean(),
    no_date_time_provided: z.boolean(),
    job_reference_id: z.string().nullable(),
    type: z.string().describe('SERVICE'),
    timezone_name: sandboxOnly(z.string().describe('IANA zone the times are shown in')),
    location: sandboxOnly(z.string()),
    notes: sandboxOnly(
      z.array(z.string()).describe('What the daylight-saving rule or an explicit offset changed, in words; empty when nothing'),
    ),
  },
  ['uuid', 'created_on', 'updated_on'],
);
export type AppointmentSchedule = z.infer<typeof appointmentScheduleSchema>;

export const appointmentSchedulePageSchema = pageSchema(appointmentScheduleSchema);

const bound = z
  .string()
  .trim()
  // An unencoded "+11:00" in a query string arrives as " 11:00".
  .transform((value) => value.replace(/ (\d{2}:\d{2})$/, '+$1'))
  .refine((value) => DATE.test(value) || (!Number.isNaN(Date.parse(value)) && OFFSET.test(value)), {
    message: 'use a date (2026-03-02) or a date and time with an offset (2026-03-02T09:00:00+11:00 or …Z)',
  });
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const OFFSET = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

export const appointmentListQuerySchema = organizationListQuery('appointments').extend({
  qr_code_uuid: z.string().optional().describe('Only appointments at this QR code address'),
  job_reference_id: typedText().optional().describe('Only the appointment with this external reference'),
  from: bound.optional().describe('Only appointments starting at or after: a date (local appointment_date) or an instant with offset'),
  to: bound
    .optional()
    .describe('Only appointments starting at or before: a date (local appointment_date, whole day) or an instant with offset'),
});
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

export const isDateBound = (value: string) => DATE.test(value);

/** One excluded row of an import (docs/imports.md): index, the row as given, and what to fix. */
export const excludedAppointmentSchema = z.object({
  index: z.number().int().describe('0-based position among the data rows (array element for JSON)'),
  row_number: rowNumberSchema,
  data: z.record(z.string(), z.unknown()).describe('The row as given'),
  error_message: z.string(),
});
export type ExcludedAppointment = z.infer<typeof excludedAppointmentSchema>;

/** docs/imports.md: the sync answer. */
export const appointmentImportResultSchema = z
  .object({
    appointment_schedules_upserted: z.array(appointmentScheduleSchema),
    excluded_appointments: z.array(excludedAppointmentSchema),
    sheet: importResultFields.sheet,
    encoding: sandboxOnly(textEncodingSchema).optional(),
    date_orders: dateOrdersResultField,
    warned: importResultFields.warned,
    warnings: importResultFields.warnings,
  })
  .meta({ id: 'AppointmentImportResult' });
export type AppointmentImportResult = z.infer<typeof appointmentImportResultSchema>;

/** docs/imports.md, for the documentation of the JSON form; rows are validated one by one (appointmentRowSchema) so a bad row is excluded, not a 400. */
export const appointmentImportRecordSchema = z
  .object(Object.fromEntries(APPOINTMENT_FIELDS.map((field) => [field, z.union([z.string(), z.number()]).optional()])))
  .meta({ id: 'AppointmentImportRecord' });

export const templateQuerySchema = z.object({
  org_identifier: z
    .string()
    .optional()
    .describe('Import handler slug: the template then uses its column titles. Default: the spec column names'),
});
