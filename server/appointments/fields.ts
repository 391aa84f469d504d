/** The fields of an appointment import record (docs/imports.md), in the spec's order: the template's columns. */
export const APPOINTMENT_FIELDS = [
  'tag_name',
  'tag_number',
  'start_date_time',
  'location',
  'duration',
  'service',
  'service_code',
  'timezone_name',
  'job_reference_id',
  'organization_uuid',
] as const;
export type AppointmentField = (typeof APPOINTMENT_FIELDS)[number];

/** The appointment fields in words, for the column matching of the Imports screen. */
export const APPOINTMENT_FIELD_LABELS: Readonly<Record<AppointmentField, string>> = {
  tag_name: 'Tag name',
  tag_number: 'Tag number',
  start_date_time: 'Start date and time',
  location: 'Address',
  duration: 'Duration (minutes)',
  service: 'Service',
  service_code: 'Service code',
  timezone_name: 'Time zone',
  job_reference_id: 'Job reference',
  organization_uuid: 'Organization',
};

/** Longest text of an appointment field read as text (every field but the start and the duration, which are parsed). */
export const APPOINTMENT_TEXT_MAX = 500;

/**
 * Columns a file must have: the kind's requiredColumns and requiredUnless (imports/engine/columns.ts
 * missingRequired), so the preview's missing_required and the import's refusal are one rule.
 * (organization_uuid may come from the form field instead.)
 */
export const REQUIRED_COLUMNS: readonly AppointmentField[] = ['tag_name', 'tag_number', 'start_date_time', 'location', 'service'];
/** A service_code column stands in for service. */
export const REQUIRED_UNLESS: Readonly<Partial<Record<AppointmentField, readonly (readonly AppointmentField[])[]>>> = {
  service: [['service_code']],
};

export function isAppointmentField(name: string): name is AppointmentField {
  return (APPOINTMENT_FIELDS as readonly string[]).includes(name);
}
