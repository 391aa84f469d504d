import { z } from 'zod';
import { typedText } from '../text/typed-text.ts';
import { organizationListQuery, pageQuerySchema, pageSchema } from '../http/pagination.ts';
import { organizationRecordSchema } from '../http/record-schema.ts';
import { hintSchema } from '../tools/schemas.ts';
import { envelopeSchema } from '../wire-format/schemas.ts';
import { inboxRulesSchema, MAX_DELAY_MS } from './rule-schemas.ts';

export const MAX_SECRETS = 10;

const secretSchema = z.string().min(1).max(512).describe('A webhook secret to verify signatures with');

const secretsSchema = z
  .array(secretSchema)
  .max(MAX_SECRETS)
  .describe(`Secrets to verify deliveries with, tried in order (several during a rotation), at most ${MAX_SECRETS}`);

/** The scheme and the rest of the webhook URL rules are checked by checkRelayUrl. */
const relayUrlSchema = z.string().min(1).max(2048);

const forwardAnswersField = z.boolean();
const FORWARD_ANSWERS =
  "true: each delivery is forwarded while its sender waits, and the inbox answers with your app's answer (its status and body; " +
  "no answer when your app gives none or times out), so your app's failures are the delivery's and are retried; a matching rule's " +
  'fault is answered instead, without forwarding. false: the inbox answers at once and forwards afterwards.';

/** Fault injection: how the inbox answers deliveries. */
export const inboxResponseSchema = z
  .object({
    status: z
      .number()
      .int()
      .min(200)
      .max(599)
      .nullable()
      .describe('Answer every delivery with this status instead of the normal 200/400 (e.g. 500, 503, 429). null: normal answers'),
    delay_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_DELAY_MS)
      .describe(
        `Wait this long before answering (0 to ${MAX_DELAY_MS}); above the sender's time limit (the webhook_timeout_s setting, 15 s by default) the sender gives up`,
      ),
    drop: z.boolean().describe('Close the connection without any answer (after the delay)'),
  })
  .meta({ id: 'InboxResponse' });
export type InboxResponse = z.infer<typeof inboxResponseSchema>;

export const inboxSchema = organizationRecordSchema('Inbox', {
  name: z.string(),
  url: z.string().describe('Where deliveries go: http://127.0.0.1:P/inbox/{uuid}; no Authorization needed'),
  secret_count: z.number().int().describe('How many secrets of its own the inbox holds'),
  secrets: z.array(z.string()).optional().describe('The secrets themselves, only with include_secrets=true'),
  response: inboxResponseSchema.describe(
    'The rule that matches every request (the last rule without conditions, without a body) as the older single setting; normal answers when there is none. Prefer rules.',
  ),
  rules: inboxRulesSchema,
  forward_to: z.string().nullable().describe('Every delivery is relayed, bytes and headers unchanged, to this URL'),
  forward_answers: forwardAnswersField.describe(FORWARD_ANSWERS),
  message_count: z.number().int(),
  dropped_messages: z
    .number()
    .int()
    .describe('Oldest messages deleted to keep the inbox within max_messages (since it was created or last cleared)'),
  max_messages: z.number().int().describe('Messages the inbox keeps; a new one past it deletes the oldest (serve --inbox-max-messages)'),
});
export type Inbox = z.infer<typeof inboxSchema>;

export const createInboxBodySchema = z
  .object({
    organization_uuid: z.string().min(1).describe('Owning organization'),
    name: typedText().trim().min(1).max(200).describe('A name to recognise the inbox by'),
    secrets: secretsSchema.optional(),
    response: inboxResponseSchema
      .partial()
      .optional()
      .describe('Fault injection as one setting, read as a single rule for every request (older form of rules; give one or the other)'),
    rules: inboxRulesSchema.optional(),
    forward_to: relayUrlSchema.nullable().optional().describe("Relay every delivery to your own app's URL"),
    forward_answers: forwardAnswersField.optional().describe(`${FORWARD_ANSWERS} Default false`),
  })
  .refine((b) => b.response === undefined || b.rules === undefined, {
    message: 'Give rules or response, not both: response is the older form of a single rule.',
    path: ['rules'],
  });
export type CreateInboxBody = z.infer<typeof createInboxBodySchema>;

export const updateInboxBodySchema = z
  .object({
    name: typedText().trim().min(1).max(200).optional(),
    secrets: secretsSchema.optional().describe('Replaces the whole list'),
    response: inboxResponseSchema
      .partial()
      .optional()
      .describe('Changes only the fields given of the rule for every request (older form of rules; give one or the other)'),
    rules: inboxRulesSchema.optional().describe('Replaces the whole list ([] answers normally) and restarts the count of messages'),
    forward_to: relayUrlSchema.nullable().optional().describe('null stops forwarding'),
    forward_answers: forwardAnswersField.optional().describe(FORWARD_ANSWERS),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'Give at least one of name, secrets, response, rules, forward_to, forward_answers.',
  })
  .refine((b) => b.response === undefined || b.rules === undefined, {
    message: 'Give rules or response, not both: response is the older form of a single rule.',
    path: ['rules'],
  });
export type UpdateInboxBody = z.infer<typeof updateInboxBodySchema>;

export const inboxParamsSchema = z.object({ uuid: z.string().describe('Inbox uuid') });
export const messageParamsSchema = z.object({ uuid: z.string().describe('Inbox uuid'), message_uuid: z.string().describe('Message uuid') });

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const inboxGetQuerySchema = z.object({
  include_secrets: flag.optional().describe('true: include the secrets in the answer'),
});

export const inboxListQuerySchema = organizationListQuery('inboxes');
export type InboxListQuery = z.infer<typeof inboxListQuerySchema>;

const timestamp = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Must be an ISO 8601 timestamp, e.g. 2026-11-21T10:00:00Z')
  .transform((v) => new Date(v).toISOString());

export const messageFilterSchema = z.object({
  organization_uuid: z.string().min(1).describe('Organization of the inbox. Required.'),
  event_type: z.string().optional().describe('Only messages whose decrypted envelope has this type, e.g. service_confirmation.check_in'),
  decrypted: flag.optional().describe('true: only decrypted messages; false: only those that could not be decrypted'),
  signature_status: z.enum(['valid', 'invalid', 'unknown']).optional().describe('Only messages with this signature verdict'),
  duplicate: flag.optional().describe('true: only duplicates; false: only first arrivals'),
  from: timestamp.optional().describe('Received at or after this time (ISO 8601)'),
  to: timestamp.optional().describe('Received before this time (ISO 8601)'),
});
export type MessageFilter = z.infer<typeof messageFilterSchema>;

export const messageListQuerySchema = pageQuerySchema.extend(messageFilterSchema.shape);
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

export const relaySchema = z
  .object({
    uuid: z.string(),
    kind: z.enum(['forward', 'replay']),
    url: z.string(),
    requested_on: z.string(),
    status_code: z.number().int().nullable().describe('Status your app answered; null when there was no answer'),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable().describe('Why there was no answer (refused, timeout, ...)'),
    response_headers: z.record(z.string(), z.string()).nullable(),
    response_excerpt: z.string().nullable().describe('The first 2 KB of the answer body'),
  })
  .meta({ id: 'InboxRelay' });
export type Relay = z.infer<typeof relaySchema>;

/** forwarded: the app's answer (forward_answers); forward_failed: the app gave none, so neither did the inbox. */
export const answerKinds = [
  'ok',
  'rejected',
  'too_large',
  'fault_status',
  'dropped',
  'client_gone',
  'forwarded',
  'forward_failed',
] as const;

export const messageSchema = z
  .object({
    uuid: z.string(),
    inbox_uuid: z.string(),
    received_on: z.string(),
    method: z.string(),
    path: z.string(),
    headers: z.record(z.string(), z.string()).describe('Request headers, names lowercased, repeats joined with ", "'),
    body: z.string().describe('The body as UTF-8 text'),
    body_base64: z.string().nullable().describe('The exact body bytes in base64 when they are not valid UTF-8; null otherwise'),
    body_size: z.number().int(),
    body_truncated: z.boolean().describe('The body was larger than the cap and only its start was kept'),
    body_excerpted: z
      .boolean()
      .describe('body and body_base64 hold only the start of the body (in lists); GET the message, or its /body, for all of it'),
    decrypted: z.boolean(),
    decryption_problem: z.string().nullable().describe('Why decryption failed, as a code (MALFORMED_SIGNATURE, DECRYPTION_FAILED, ...)'),
    decryption_error: z.string().nullable(),
    signature_status: z.enum(['valid', 'invalid', 'unknown']).describe('unknown: no secret known, or not decrypted'),
    verified_with: z.string().nullable().describe('Which secret verified it (an inbox secret, or a webhook registered here)'),
    hints: z.array(hintSchema),
    delivery_id: z
      .string()
      .nullable()
      .describe(
        "The delivery it was, the same across retries: from this server's own records of what it sent, else an X-Sandbox-Delivery-Id header; null when unknown",
      ),
    attempt: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe('Its attempt number (1 for the first), known the same way as delivery_id; null when unknown'),
    event_id: z.string().nullable(),
    event_type: z.string().nullable(),
    envelope: z
      .union([envelopeSchema, z.record(z.string(), z.unknown())])
      .nullable()
      .describe(
        'The decrypted plaintext: an EventEnvelope from this sandbox or the real service; other JSON objects as they decrypted; null when not decrypted or not a JSON object',
      ),
    envelope_size: z.number().int().nullable().describe('Bytes of the decrypted plaintext; null when nothing was decrypted'),
    envelope_omitted: z.boolean().describe('The envelope is left out (null) because it is too big for a list; GET the message for it'),
    duplicate_of: z.string().nullable().describe('The first message with the same delivery id, signature or event id'),
    duplicate_by: z.enum(['delivery_id', 'signature', 'event_id']).nullable(),
    answer: z.object({
      kind: z.enum(answerKinds).nullable(),
      status: z.number().int().nullable(),
      after_ms: z.number().int().nullable(),
      rule: z
        .number()
        .int()
        .nullable()
        .optional()
        .describe("Which of the inbox's rules decided the answer, 1 for the first; null when none matched"),
    }),
    relays: z.array(relaySchema),
  })
  .meta({ id: 'InboxMessage' });
export type Message = z.infer<typeof messageSchema>;

/** Bytes of a body's start that a list carries; the excerpt's JSON text is at most twice this. */
export const BODY_EXCERPT_BYTES = 2048;
/** A decrypted envelope larger than this is left out of lists. */
export const LIST_ENVELOPE_BYTES = 16 * 1024;

/** A message as lists give it: bounded in bytes whatever the message holds. */
export const messageListItemSchema = messageSchema
  .extend({
    body: z
      .string()
      .describe(
        `The start of the body as UTF-8 text: at most ${BODY_EXCERPT_BYTES} bytes, cut shorter so that its JSON text stays within ${2 * BODY_EXCERPT_BYTES} bytes (control bytes escape to 6); body_excerpted says whether there is more`,
      ),
    body_base64: z
      .string()
      .nullable()
      .describe(`The first ${BODY_EXCERPT_BYTES} bytes of the body in base64 when they are not valid UTF-8; null otherwise`),
    envelope: messageSchema.shape.envelope.describe(
      `As in a single message, but null (with envelope_omitted) when the plaintext is over ${LIST_ENVELOPE_BYTES / 1024} KB`,
    ),
  })
  .meta({ id: 'InboxMessageListItem' });
export type MessageListItem = z.infer<typeof messageListItemSchema>;

export const inboxPageSchema = pageSchema(inboxSchema);
export const messagePageSchema = pageSchema(messageListItemSchema);

export const replayBodySchema = z
  .object({
    url: relayUrlSchema.optional().describe("Where to send it; default the inbox's forward_to"),
  })
  .optional();

export const exportQuerySchema = messageFilterSchema.extend({
  format: z.enum(['json', 'har']).default('json').describe('json (default) or har (HAR 1.2, opens in browser dev tools)'),
  include_signature: flag.optional().describe('true: keep X-Service-Signature; by default it is masked, since it is the decryption key'),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** What an inbox answers a delivery it stored (POST /inbox/{uuid}). */
export const inboxReceiptSchema = z
  .object({
    received: z.literal(true),
    message_uuid: z.string(),
    decrypted: z.boolean(),
    signature_status: z.enum(['valid', 'invalid', 'unknown']),
    duplicate_of: z.string().nullable().describe('The first message with the same delivery id, signature or event id'),
  })
  .meta({ id: 'InboxReceipt' });

/** What an inbox set to answer a chosen status (response.status) answers instead, with that status. */
export const inboxFaultAnswerSchema = z
  .object({ fault_injection: z.literal(true), status: z.number().int(), message_uuid: z.string(), message: z.string() })
  .meta({ id: 'InboxFaultAnswer' });

/** Longest a wait for messages may hold a request open. */
export const MAX_WAIT_SECONDS = 60;
export const DEFAULT_WAIT_SECONDS = 30;

export const messageWaitQuerySchema = messageFilterSchema.extend({
  after: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A message uuid, or an event id (then the first message that carried it): only messages received after it count. Default: every message of the inbox',
    ),
  timeout_s: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .default(DEFAULT_WAIT_SECONDS)
    .describe(`Seconds to wait for a message when none is there yet, 0 to ${MAX_WAIT_SECONDS}. Default ${DEFAULT_WAIT_SECONDS}`),
  limit: z.coerce.number().int().min(1).max(100).default(100).describe('Most messages in one answer, 1 to 100. Default 100'),
});
export type MessageWaitQuery = z.infer<typeof messageWaitQuerySchema>;

export const messageWaitSchema = z
  .object({
    messages: z
      .array(messageListItemSchema)
      .describe('Matching messages received after `after`, oldest first; empty when the wait timed out'),
    timed_out: z.boolean().describe('true: nothing matching arrived within timeout_s'),
    next_after: z
      .string()
      .nullable()
      .describe('The uuid of the last message in this answer: pass it as `after` to wait for the ones after; null when there is none'),
  })
  .meta({ id: 'InboxMessageWait' });
export type MessageWait = z.infer<typeof messageWaitSchema>;
