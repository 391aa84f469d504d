import { z } from 'zod';

export const hintSchema = z
  .object({
    code: z.string().describe('Which mistake, e.g. PAYLOAD_IS_BASE64URL, SECRET_WHITESPACE, BODY_RESERIALISED'),
    field: z.enum(['payload', 'signature', 'secret']).describe('The input the hint is about'),
    message: z.string().describe('What went wrong and how to fix it'),
  })
  .meta({ id: 'DoctorHint' });
export type Hint = z.infer<typeof hintSchema>;

export const decryptBodySchema = z
  .object({
    payload: z.string().optional().describe('The base64 "payload" string of a delivery body'),
    body: z.string().optional().describe('Or the whole delivery body text, {"payload": "..."}'),
    signature: z.string().describe('The X-Service-Signature value: sha256=<64 hex> or the bare hex'),
    secret: z.string().optional().nullable().describe('The webhook secret; without it the signature is not checked (verified: null)'),
  })
  .refine((b) => (b.payload === undefined) !== (b.body === undefined), {
    message: 'Give exactly one of payload or body.',
    path: ['payload'],
  });

export const decryptResultSchema = z
  .object({
    plaintext: z.string().describe('The decrypted bytes as UTF-8 text'),
    json: z.unknown().describe('The plaintext parsed as JSON (the event envelope), or null when it is not JSON'),
    verified: z.boolean().nullable().describe('Signature check: true valid, false invalid, null when no secret was given'),
    hints: z.array(hintSchema).describe('What the doctor noticed; empty when all is well'),
  })
  .meta({ id: 'DecryptResult' });
export type DecryptResult = z.infer<typeof decryptResultSchema>;
