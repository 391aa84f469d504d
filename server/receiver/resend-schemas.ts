import { z } from 'zod';
import { hintSchema } from '../tools/schemas.ts';
import { variantIds } from './broken-variants.ts';

export const MAX_RESEND_PLAINTEXT_CHARS = 1024 * 1024;

export const resendBodySchema = z
  .object({
    plaintext: z
      .string()
      .max(MAX_RESEND_PLAINTEXT_CHARS)
      .optional()
      .describe(
        'The decrypted JSON as edited: must be a JSON object; it is sent as compact JSON, as the service sends it. ' +
          "Default: the message's decrypted plaintext, byte for byte",
      ),
    target_url: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe('Where to send it; default this inbox. The webhook URL rules apply (https anywhere, http only to this machine)'),
    secret: z.string().min(1).max(512).optional().describe('A secret to seal with, typed by you (wins over secret_label)'),
    secret_label: z
      .string()
      .optional()
      .describe(
        'One of the known secrets, by its label (GET this path lists them). Default: the secret that verified the message, else the first one',
      ),
    variant: z.enum(variantIds).optional().describe('Send a broken variant instead (GET this path lists them with what the doctor says)'),
  })
  .meta({ id: 'ResendRequest' });
export type ResendBody = z.infer<typeof resendBodySchema>;

export const doctorVerdictSchema = z
  .object({
    decrypted: z.boolean(),
    problem: z.string().nullable().describe('decryption_problem of the message it becomes'),
    signature_status: z.enum(['valid', 'invalid', 'unknown']),
    hint: z.string().nullable().describe("The code of the doctor's first hint; null when it has none"),
    label: z.string().describe('The verdict in one line, e.g. "Not decrypted · DECRYPTION_FAILED · SIGNATURE_OF_ANOTHER_DELIVERY"'),
  })
  .meta({ id: 'DoctorVerdict' });

export const resendVariantSchema = z
  .object({
    id: z.enum(variantIds),
    title: z.string(),
    description: z.string().describe('What is broken, and what a correct verifier does with it'),
    verdict: doctorVerdictSchema.describe('What the doctor (and an inbox knowing the secret) says about it'),
  })
  .meta({ id: 'ResendVariant' });

export const resendSecretSchema = z
  .object({
    label: z.string().describe('webhook <uuid>, inbox secret, inbox secret 2 of 3'),
    source: z.enum(['webhook', 'inbox']),
    verified_message: z.boolean().describe('This secret verified the message when it arrived'),
  })
  .meta({ id: 'ResendSecret' });

export const resendOptionsSchema = z
  .object({
    target_url: z.string().describe('Where a resend goes by default: this inbox'),
    secrets: z.array(resendSecretSchema).describe('Secrets the server knows for this inbox (never the values)'),
    default_secret_label: z
      .string()
      .nullable()
      .describe('The one used unless you choose: the one that verified the message, else the first'),
    plaintext: z.string().nullable().describe('The decrypted plaintext to start editing from; null when the message was not decrypted'),
    variants: z.array(resendVariantSchema),
  })
  .meta({ id: 'ResendOptions' });
export type ResendOptions = z.infer<typeof resendOptionsSchema>;

export const resendResultSchema = z
  .object({
    target_url: z.string(),
    variant: z.enum(variantIds).nullable(),
    secret: z.object({
      source: z.enum(['webhook', 'inbox', 'given']),
      label: z.string().describe('Which secret sealed it: webhook <uuid>, inbox secret, or "the secret you gave"'),
    }),
    verdict: doctorVerdictSchema.describe('What the doctor says about the bytes sent, judged with that secret'),
    hints: z.array(hintSchema).describe("The doctor's hints on the bytes sent"),
    sent: z.object({
      headers: z.record(z.string(), z.string()).describe('The request headers, as sent'),
      body: z.string().describe('The request body, as sent'),
      plaintext: z.string().describe('The plaintext the body carries'),
    }),
    answer: z.object({
      status_code: z.number().int(),
      headers: z.record(z.string(), z.string()),
      body_excerpt: z.string().nullable().describe('The first 2 KB of the answer'),
      duration_ms: z.number().int(),
    }),
    inbox_message_uuid: z.string().nullable().describe('When the target is an inbox of this server: the message it became'),
  })
  .meta({ id: 'ResendResult' });
export type ResendResult = z.infer<typeof resendResultSchema>;
