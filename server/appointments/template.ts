import { ColumnMapper } from './columns.ts';
import { APPOINTMENT_FIELDS, type AppointmentField } from './fields.ts';

/** The example row: a demo service (see server/services/demo.ts) at an address the offline geocoder knows. */
export function exampleRow(organizationUuid: string): Record<AppointmentField, string> {
  return {
    tag_name: 'Gate',
    tag_number: '17',
    start_date_time: '2026-03-02 09:00',
    location: '1 Collins Street, Melbourne VIC 3000, Australia',
    duration: '60',
    service: 'Plumbing',
    service_code: 'PLB',
    timezone_name: 'Australia/Melbourne',
    job_reference_id: 'JOB-1001',
    organization_uuid: organizationUuid,
  };
}

/**
 * The import template (docs/imports.md): the appointment columns in order, titled as the import
 * handler's mapping names them (default: the spec names), and one example row.
 */
export function appointmentTemplateCsv(organizationUuid: string, mapping: Record<string, AppointmentField> = {}): string {
  const mapper = new ColumnMapper(mapping);
  const example = exampleRow(organizationUuid);
  const header = APPOINTMENT_FIELDS.map((field) => mapper.titleFor(field) ?? field);
  const row = APPOINTMENT_FIELDS.map((field) => example[field]);
  return `${[header, row].map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
