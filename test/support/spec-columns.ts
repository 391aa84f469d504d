/**
 * The columns of an appointment import record in the order docs/imports.md lists them. Written out here,
 * not taken from server/appointments/fields.ts, so the tests hold the server's list to the spec.
 */
export const SPEC_APPOINTMENT_COLUMNS =
  'tag_name tag_number start_date_time location duration service service_code timezone_name job_reference_id organization_uuid'.split(' ');

/** The columns of an appointment import file: the spec's, but organization_uuid (the upload names it as a form field). */
export const SPEC_APPOINTMENT_FILE_COLUMNS = SPEC_APPOINTMENT_COLUMNS.filter((column) => column !== 'organization_uuid');
