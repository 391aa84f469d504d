import { z } from 'zod';
import type { MappedValues } from './columns.ts';
import { APPOINTMENT_TEXT_MAX, type AppointmentField } from './fields.ts';
import { type DateOrder, parseDuration, parseStartDateTime, parseTimeZoneName, type ParsedStart } from './times.ts';

/** One appointment row after validation (docs/imports.md), ready for the upsert. */
export interface AppointmentRow {
  tag_name: string;
  tag_number: string;
  start: ParsedStart;
  location: string;
  duration: number;
  service: string | null;
  service_code: string | null;
  timezone_name: string | null;
  job_reference_id: string | null;
  organization_uuid: string;
}

export interface RowSchemaOptions {
  /** The organization the import runs for; a row naming another one is refused. */
  organizationUuid: string;
  /** How a field admin knows a field: the file's column title (see ColumnMapper.label). */
  label?: (field: AppointmentField) => string;
  /** How start dates with slashes are read (the organization's setting); default iso_only. */
  dateOrder?: DateOrder;
}

/** A cell as trimmed text: numbers (e.g. a tag number typed as 17) become text; empty becomes undefined. */
function cellText(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value;
}

/**
 * The zod schema of an appointment row (docs/imports.md) whose messages name the columns as the file
 * names them and say what to fix. Build it once per import.
 */
export function appointmentRowSchema(options: RowSchemaOptions) {
  const label = options.label ?? ((field: AppointmentField) => field);
  const order = options.dateOrder ?? 'iso_only';
  // Files repeat start times; parsing one is the costly part of a row.
  const starts = new Map<string, ReturnType<typeof parseStartDateTime>>();
  const parseStart = (value: unknown) => {
    if (typeof value !== 'string') return parseStartDateTime(value, label('start_date_time'), order);
    let parsed = starts.get(value);
    if (parsed === undefined) {
      parsed = parseStartDateTime(value.trim(), label('start_date_time'), order);
      if (starts.size >= 20_000) starts.clear();
      starts.set(value, parsed);
    }
    return parsed;
  };
  const required = (field: AppointmentField, example: string) =>
    z.preprocess(
      cellText,
      z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? `${label(field)} is required, for example ${example}.`
              : `${label(field)} must be text, for example ${example}.`,
        })
        .max(APPOINTMENT_TEXT_MAX, `${label(field)} is longer than ${APPOINTMENT_TEXT_MAX} characters.`),
    );
  const optional = (field: AppointmentField) =>
    z.preprocess(
      cellText,
      z
        .string({ error: `${label(field)} must be text.` })
        .max(APPOINTMENT_TEXT_MAX, `${label(field)} is longer than ${APPOINTMENT_TEXT_MAX} characters.`)
        .optional(),
    );

  const schema = z
    .object({
      tag_name: required('tag_name', 'Gate'),
      tag_number: required('tag_number', '17'),
      start_date_time: z
        .unknown()
        .optional()
        .transform((value, ctx) => {
          const parsed = parseStart(value);
          if (parsed.ok) return parsed.value;
          ctx.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }),
      location: required('location', '1 Collins Street, Melbourne VIC 3000, Australia'),
      duration: z
        .unknown()
        .optional()
        .transform((value, ctx) => {
          const parsed = parseDuration(value, label('duration'));
          if (parsed.ok) return parsed.value;
          ctx.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }),
      service: optional('service'),
      service_code: optional('service_code'),
      timezone_name: optional('timezone_name').transform((value, ctx) => {
        if (value === undefined) return null;
        const parsed = parseTimeZoneName(value, label('timezone_name'));
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
      job_reference_id: optional('job_reference_id'),
      organization_uuid: optional('organization_uuid').superRefine((value, ctx) => {
        if (value === undefined || value === options.organizationUuid) return;
        ctx.addIssue({
          code: 'custom',
          message: `${label('organization_uuid')} ${value} is not the organization this import runs for (${options.organizationUuid}); leave it empty or fix it.`,
        });
      }),
    })
    .refine((row) => row.service !== undefined || row.service_code !== undefined, {
      path: ['service'],
      message: `Give ${label('service')} (the service name) or ${label('service_code')} (its code); the row has neither.`,
      // Also when other fields failed, so that the row's message lists every problem at once.
      when: (payload) => {
        const value = payload.value as MappedValues | undefined;
        return typeof value === 'object' && value !== null;
      },
    })
    .transform(
      (row): AppointmentRow => ({
        tag_name: row.tag_name,
        tag_number: row.tag_number,
        start: row.start_date_time,
        location: row.location,
        duration: row.duration,
        service: row.service ?? null,
        service_code: row.service_code ?? null,
        timezone_name: row.timezone_name,
        job_reference_id: row.job_reference_id ?? null,
        organization_uuid: options.organizationUuid,
      }),
    );

  /** The text of an optional cell: undefined when empty, null when zod would refuse it (not text, too long). */
  const text = (value: unknown): string | undefined | null => {
    const cell = cellText(value);
    if (cell === undefined) return undefined;
    return typeof cell === 'string' && cell.length <= APPOINTMENT_TEXT_MAX ? cell : null;
  };
  /**
   * The schema's answer for a row it accepts, without zod (a third of an import's time went to
   * zod's objects); null for any row it might refuse, which then goes through zod for the messages.
   * The property test in test/properties/appointment-rows.property.test.ts holds the two equal.
   */
  const quick = (values: MappedValues): AppointmentRow | null => {
    const tagName = text(values.tag_name);
    const tagNumber = text(values.tag_number);
    const location = text(values.location);
    if (!tagName || !tagNumber || !location) return null;
    const start = parseStart(values.start_date_time);
    if (!start.ok) return null;
    const duration = parseDuration(values.duration, label('duration'));
    if (!duration.ok) return null;
    const service = text(values.service);
    const serviceCode = text(values.service_code);
    const jobReference = text(values.job_reference_id);
    const organization = text(values.organization_uuid);
    const zoneText = text(values.timezone_name);
    if (service === null || serviceCode === null || jobReference === null || organization === null || zoneText === null) return null;
    if (service === undefined && serviceCode === undefined) return null;
    if (organization !== undefined && organization !== options.organizationUuid) return null;
    let timezoneName: string | null = null;
    if (zoneText !== undefined) {
      const zone = parseTimeZoneName(zoneText, label('timezone_name'));
      if (!zone.ok) return null;
      timezoneName = zone.value;
    }
    return {
      tag_name: tagName,
      tag_number: tagNumber,
      start: start.value,
      location,
      duration: duration.value,
      service: service ?? null,
      service_code: serviceCode ?? null,
      timezone_name: timezoneName,
      job_reference_id: jobReference ?? null,
      organization_uuid: options.organizationUuid,
    };
  };
  return Object.assign(schema, { quick });
}

export type AppointmentRowSchema = ReturnType<typeof appointmentRowSchema>;

export type RowOutcome = { ok: true; row: AppointmentRow } | { ok: false; error_message: string };

/** Validates mapped values; all problems of the row in one message, in column order. */
export function validateAppointmentRow(schema: AppointmentRowSchema, values: MappedValues): RowOutcome {
  const row = schema.quick(values);
  if (row !== null) return { ok: true, row };
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, row: result.data };
  return { ok: false, error_message: result.error.issues.map((issue) => issue.message).join(' ') };
}
