import { z } from 'zod';
import { typedText } from '../text/typed-text.ts';
import { pageQuerySchema, pageSchema } from '../http/pagination.ts';

export const confirmationStatuses = ['CHECK_IN', 'CHECK_OUT', 'DELIVERY'] as const;
export const confirmationStatusSchema = z.enum(confirmationStatuses);
export type ConfirmationStatus = z.infer<typeof confirmationStatusSchema>;

const isoMillis = z.iso.datetime({ offset: false, precision: 3 });
const micros = z.string().describe('UTC, date, space, time with microseconds');

export const userSchema = z.object({ uuid: z.string(), firstname: z.string(), lastname: z.string(), email: z.string() });
export const companySchema = z.object({ uuid: z.string(), name: z.string() });
export const geolocationSchema = z.object({ address: z.string(), lat: z.number(), lng: z.number() });
export const appointmentScheduleSchema = z.object({ job_reference_id: z.string(), start_date_time: z.string(), end_date_time: z.string() });
export const qrCodeTagSchema = z.object({ tag_display_name: z.string(), tag_name: z.string(), tag_number: z.string() });
export const serviceSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  code: z.string(),
  service_categories: z.array(z.object({ uuid: z.string(), name: z.string() })),
});
export const questionResponseSchema = z.object({
  response_text: z.string(),
  question: z.object({ question_text: z.string(), question_type: z.string() }),
});

const confirmationFields = {
  uuid: z.string(),
  created_on: micros,
  updated_on: micros,
  organization_uuid: z.string(),
  user_uuid: z.string(),
  company_uuid: z.string(),
  qr_code_uuid: z.string(),
  qr_code_tag_uuid: z.string().nullable().describe('null when the QR code has no tag'),
  service_uuid: z.string(),
  appointment_schedule_uuid: z.string(),
  service: z.string(),
  status: confirmationStatusSchema,
  location: z.string(),
  location_verified: z.boolean(),
  checked_in_at: z.string().nullable().describe('ISO 8601 UTC with milliseconds'),
  checked_out_at: z.string().nullable().describe('ISO 8601 UTC with milliseconds'),
  note: z.string(),
  work_mode: z.string(),
  is_sms: z.boolean(),
  delivery_image_url: z.string().nullable(),
  checkout_image_urls: z.array(z.string()).nullable(),
  manual_distance_from_previous: z.number().describe('Kilometres, as entered by the worker'),
  calculated_distance_from_previous: z.number().describe('Kilometres between the previous confirmation and this one (great-circle)'),
  previous_service_confirmation_uuid: z.string().nullable(),
  user_geolocation: geolocationSchema,
  user: userSchema,
  company: companySchema,
  appointment_schedule: appointmentScheduleSchema,
  qr_code_tag: qrCodeTagSchema.nullable(),
  services: z.array(serviceSchema),
  question_responses: z.array(questionResponseSchema),
};

/** The previous confirmation as embedded: its own previous is given by uuid only. */
export const previousConfirmationSchema = z
  .object({ ...confirmationFields, previous_service_confirmation: z.null() })
  .meta({ id: 'PreviousServiceConfirmation' });

/** The data object of every webhook event. */
export const serviceConfirmationSchema = z
  .object({ ...confirmationFields, previous_service_confirmation: previousConfirmationSchema.nullable() })
  .meta({ id: 'ServiceConfirmation' });
export type ServiceConfirmation = z.infer<typeof serviceConfirmationSchema>;
export type PreviousConfirmation = z.infer<typeof previousConfirmationSchema>;

export const createConfirmationBodySchema = z.strictObject({
  organization_uuid: z.string().min(1),
  qr_code_uuid: z.string().min(1).describe('The QR code address where the service was confirmed'),
  status: confirmationStatusSchema.describe(
    'CHECK_IN, CHECK_OUT or DELIVERY; emits service_confirmation.check_in, .check_out or .delivery',
  ),
  qr_code_tag_uuid: z.string().min(1).optional().describe("One of the QR code's tags; default its first"),
  service: typedText().trim().min(1).optional().describe('Service name; default a service from the demo catalog'),
  note: z.string().max(2000).optional(),
  user: userSchema.partial({ uuid: true }).optional().describe("Default the organization's demo field worker"),
  company: companySchema.partial({ uuid: true }).optional(),
  user_geolocation: z
    .object({ address: z.string().optional(), lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
    .optional()
    .describe('Default a position at the QR code'),
  location_verified: z.boolean().optional(),
  checked_in_at: isoMillis.nullable().optional().describe('null: none; left out: generated'),
  checked_out_at: isoMillis.nullable().optional().describe('null: none; left out: generated'),
  is_sms: z.boolean().optional(),
  delivery_image_url: z.url().nullable().optional().describe('null: no image; left out: generated for a delivery'),
  checkout_image_urls: z.array(z.url()).nullable().optional().describe('null: none; left out: generated for a check-out'),
  manual_distance_from_previous: z.number().min(0).optional(),
  appointment_schedule: appointmentScheduleSchema.optional(),
  question_responses: z.array(questionResponseSchema).optional(),
  work_mode: z.string().min(1).optional(),
});
export type CreateConfirmationBody = z.infer<typeof createConfirmationBodySchema>;

export const confirmationListQuerySchema = pageQuerySchema.extend({
  organization_uuid: z.string().min(1).describe('Required.'),
  status: confirmationStatusSchema.optional(),
  qr_code_uuid: z.string().optional(),
});
export type ConfirmationListQuery = z.infer<typeof confirmationListQuerySchema>;
export const confirmationPageSchema = pageSchema(serviceConfirmationSchema);
export const confirmationParamsSchema = z.object({ uuid: z.string() });
