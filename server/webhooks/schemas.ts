import { z } from 'zod';
import { organizationListQuery, pageQuerySchema, pageSchema } from '../http/pagination.ts';
import { envelopeSchema } from '../wire-format/schemas.ts';
import { eventTypes } from '../webhook-events/registry.ts';
import { eventListSchema, eventNamesText } from './events.ts';
import { webhookRetryScheduleSchema } from './retry-schedule.ts';
import { sandboxOnly } from '../http/sandbox-only.ts';

const timestamp = z.string().describe('UTC, date, space, time with microseconds, e.g. 2026-11-21 20:14:21.123456');

const sandboxDiagnosticsField = sandboxOnly(
  z
    .boolean()
    .describe(
      'Its deliveries also carry X-Sandbox-Event, X-Sandbox-Delivery-Id and X-Sandbox-Attempt, diagnostics the real service never sends; ' +
        'false (the default): only what the service sends. A QR Sandbox field',
    ),
);

/** A registered webhook; `secret` only in the registration answer and with ?include_secret=true. */
export const webhookSchema = z
  .object({
    uuid: z.string(),
    created_on: timestamp,
    updated_on: timestamp,
    organization_uuid: z.string(),
    url: z.string(),
    events: z.array(z.enum(eventTypes)).describe(eventNamesText),
    is_active: z.boolean(),
    retry_schedule: sandboxOnly(
      webhookRetryScheduleSchema
        .nullable()
        .describe("Its own retry schedule; null: the organization's webhook_retry_schedule setting. A QR Sandbox field"),
    ).optional(),
    failing_since: sandboxOnly(
      z.string().nullable().describe('ISO 8601 UTC: every attempt since then failed; null after a successful one. A QR Sandbox field'),
    ).optional(),
    disabled_reason: sandboxOnly(
      z
        .string()
        .nullable()
        .describe(
          'Why QR Sandbox disabled it (is_active false) after failing for too long; null otherwise. PATCH is_active true re-enables it',
        ),
    ).optional(),
    disabled_on: sandboxOnly(
      z.string().nullable().describe('ISO 8601 UTC: when QR Sandbox disabled it automatically; null otherwise'),
    ).optional(),
    sandbox_diagnostics: sandboxDiagnosticsField.optional(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookWithSecretSchema = webhookSchema
  .extend({ secret: z.string().describe('Keys the HMAC of every delivery; the AES key is derived from that HMAC') })
  .meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

const urlField = z
  .string()
  .trim()
  .min(1)
  .describe('https:// anywhere; http:// to this machine (127.0.0.1, localhost, [::1]) or anywhere when settings allow it');
const eventsField = eventListSchema.describe(eventNamesText);

/**
 * A secret given by the caller instead of a generated one: the service's reference has the service
 * generate it, so this field is the sandbox's own (x-sandbox), for tests and CI that give their app
 * and the sandbox the same secret.
 */
const givenSecretField = z
  .string()
  .min(8)
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  .meta({
    'x-sandbox': true,
    description:
      'QR Sandbox only (the service generates every secret): use this secret, 8 to 512 printable ASCII characters without spaces, instead of a generated one. For tests and CI that give their app the same secret',
  });

/** The registration body. */
export const registerWebhookBodySchema = z.strictObject({
  organization_uuid: z.string().min(1),
  url: urlField,
  events: eventsField,
  is_active: z.boolean().default(true),
  retry_schedule: sandboxOnly(
    webhookRetryScheduleSchema
      .nullable()
      .describe("Its own retry schedule (a QR Sandbox field); left out or null: the organization's setting"),
  ).optional(),
  sandbox_diagnostics: sandboxDiagnosticsField.optional(),
  secret: givenSecretField.optional(),
});
export type RegisterWebhookBody = z.infer<typeof registerWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .strictObject({
    url: urlField.optional(),
    events: eventsField.optional(),
    is_active: z.boolean().optional().describe('true also re-enables a webhook disabled automatically'),
    retry_schedule: sandboxOnly(
      webhookRetryScheduleSchema
        .nullable()
        .describe("Its own retry schedule (a QR Sandbox field); null: back to the organization's setting"),
    ).optional(),
    sandbox_diagnostics: sandboxDiagnosticsField.optional(),
    secret: givenSecretField.optional(),
  })
  .refine((b) => Object.values(b).some((value) => value !== undefined), {
    message: 'Give at least one of url, events, is_active, retry_schedule, sandbox_diagnostics, secret.',
  });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookListQuerySchema = organizationListQuery('webhooks');
export type WebhookListQuery = z.infer<typeof webhookListQuerySchema>;
export const webhookPageSchema = pageSchema(webhookSchema);

export const webhookParamsSchema = z.object({ uuid: z.string().describe('Webhook uuid') });
export const webhookGetQuerySchema = z.object({
  include_secret: z.enum(['true', 'false']).default('false').describe('true: include the secret (needs the editor role)'),
});

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int().describe('1 for the first attempt (sent as X-Sandbox-Attempt only with sandbox_diagnostics)'),
  attempted_on: z.string().describe('ISO 8601 UTC'),
  status_code: z.number().int().nullable().describe('HTTP status of the answer; null when none came'),
  duration_ms: z.number().int().nullable().describe('null while the attempt is in flight'),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe('The first 1 KB of the answer body'),
  response_headers: z
    .record(z.string(), z.string())
    .nullable()
    .describe(
      'The answer headers as received (repeated ones joined with ", "); null when no answer came or for attempts logged before they were recorded',
    ),
  response_body: z
    .string()
    .nullable()
    .describe('The answer body as text, up to 64 KiB (RESPONSE_BODY_BYTES); null when empty or no answer came'),
  response_body_truncated: z.boolean().describe('The answer body was longer than 64 KiB; the rest was not read'),
  request_headers: z
    .record(z.string(), z.string())
    .nullable()
    .describe(
      'The request headers as sent (Content-Type, X-Service-Signature, User-Agent, and the X-Sandbox-* ones with sandbox_diagnostics); null when nothing was sent or for attempts logged before they were recorded',
    ),
  request_body: z
    .string()
    .nullable()
    .describe('The request body as sent: {"payload": "<base64 IV + AES-256-CBC ciphertext>"}, a fresh IV each attempt'),
  inbox_message_uuid: z
    .string()
    .nullable()
    .describe(
      "When the webhook's URL is a local inbox of this server: the inspector message this attempt became (GET /api/inboxes/{inbox_uuid}/messages/{uuid})",
    ),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const deliverySchema = z
  .object({
    delivery_id: z
      .string()
      .describe(
        "This sandbox's id of the delivery, the same for every attempt (sent as X-Sandbox-Delivery-Id only with sandbox_diagnostics; the service sends no delivery id: de-duplicate on the envelope's id)",
      ),
    event_id: z.string(),
    event_type: z.enum(eventTypes),
    webhook_uuid: z.string(),
    status: z.enum(deliveryStatuses),
    status_reason: z.string().nullable().describe('Why a delivery failed without a successful attempt, e.g. schedule used up'),
    attempt_count: z.number().int(),
    next_attempt_on: z.string().nullable().describe('ISO 8601 UTC; null unless pending'),
    created_on: z.string().describe('ISO 8601 UTC'),
    attempts: z.array(deliveryAttemptSchema),
    payload: z
      .union([envelopeSchema, z.string()])
      .nullable()
      .describe(
        "The event envelope as sent, decrypted from the last attempt's body with the webhook's secret (which this server knows); null before any body was sent",
      ),
    payload_verified: z
      .boolean()
      .nullable()
      .describe("The decrypted payload's HMAC matches the X-Service-Signature header sent; null when there is no body"),
    inbox_uuid: z.string().nullable().describe('The local inbox (webhook inspector) the webhook URL points to, or null'),
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveryPageSchema = pageSchema(deliverySchema);

export const deliveryListQuerySchema = pageQuerySchema.extend({
  organization_uuid: z.string().min(1).describe('Organization of the webhook. Required.'),
  status: z.enum(deliveryStatuses).optional(),
});
export type DeliveryListQuery = z.infer<typeof deliveryListQuerySchema>;
export const deliveryParamsSchema = z.object({ uuid: z.string().describe('Webhook uuid'), delivery_id: z.string() });
