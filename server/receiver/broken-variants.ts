/**
 * Deliberately broken deliveries, to test a receiver's verifier: each is built with the wire-format
 * module only, and named by what the decrypt doctor says about it (server/tools/verdicts.ts) when
 * it is judged with the right secret. The wire format has no timestamp header; the only time a
 * delivery carries is the envelope's created_at (see stale_envelope).
 */
import { randomBytes } from 'node:crypto';
import { deliveryBody, extractPayload } from '../wire-format/body.ts';
import { encrypt, encryptWithKey, KEY_CHARS } from '../wire-format/cipher.ts';
import type { DecryptionProblem } from '../wire-format/problems.ts';
import { seal } from '../wire-format/seal.ts';
import { formatSignatureHeader, sign } from '../wire-format/signature.ts';

export const variantIds = [
  'wrong_secret',
  'flipped_bit',
  'tampered_ciphertext',
  'truncated_payload',
  'missing_signature',
  'signature_base64',
  'key_from_uppercase_hex',
  'payload_base64url',
  'reserialised_body',
  'stale_envelope',
] as const;
export type VariantId = (typeof variantIds)[number];

/** What the doctor says about a delivery, in the terms of an inbox message's verdicts. */
export interface DoctorVerdict {
  decrypted: boolean;
  problem: DecryptionProblem | null;
  signature_status: 'valid' | 'invalid' | 'unknown';
  /** The code of the doctor's first hint; null when it has nothing to say. */
  hint: string | null;
}

/** One delivery's parts: the plaintext it carries, its body, and its signature header (null: sent without one). */
export interface BuiltDelivery {
  plaintext: Buffer;
  body: string;
  signatureHeader: string | null;
}

interface Variant {
  id: VariantId;
  title: string;
  /** What is wrong with it, and what a correct verifier does. */
  description: string;
  verdict: DoctorVerdict;
  /** The delivery, or why this plaintext cannot give this variant. */
  build(plaintext: Buffer, secret: string): BuiltDelivery | string;
}

const STALE_HOURS = 24;

function payloadBytes(body: string): Buffer {
  return Buffer.from(extractPayload(body), 'base64');
}

function withPayload(raw: Buffer): string {
  return deliveryBody(raw.toString('base64'));
}

function sealed(plaintext: Buffer, secret: string): BuiltDelivery {
  const { body, signatureHeader } = seal(plaintext, secret);
  return { plaintext, body, signatureHeader };
}

function parsedObject(plaintext: Buffer): Record<string, unknown> | null {
  try {
    const value = JSON.parse(plaintext.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A byte of the first block (what the IV's same byte flips) whose lowest bit can change with the text staying a JSON object. */
function flippableByte(plaintext: Buffer): number | null {
  for (let i = 0; i < Math.min(16, plaintext.length); i += 1) {
    const changed = Buffer.from(plaintext);
    changed[i] = (changed[i] ?? 0) ^ 1;
    if (parsedObject(changed) !== null) return i;
  }
  return null;
}

const decryptsInvalid = (hint: string): DoctorVerdict => ({ decrypted: true, problem: null, signature_status: 'invalid', hint });
const notDecrypted = (problem: DecryptionProblem, hint: string): DoctorVerdict => ({
  decrypted: false,
  problem,
  signature_status: 'unknown',
  hint,
});

export const variants: readonly Variant[] = [
  {
    id: 'wrong_secret',
    title: 'Wrong secret',
    description:
      'Signed, and so encrypted, with a random secret instead of the webhook secret. It decrypts (the key comes from the signature), but the HMAC does not verify: reject it.',
    verdict: decryptsInvalid('WRONG_SECRET'),
    build: (plaintext) => sealed(plaintext, `whsec_wrong_${randomBytes(16).toString('hex')}`),
  },
  {
    id: 'flipped_bit',
    title: 'Tampered ciphertext that still decrypts',
    description:
      'One bit of the IV flipped, which flips the same bit of the first plaintext block: it still decrypts to JSON with one letter changed. Only the HMAC check catches it; the doctor cannot tell it from a wrong secret.',
    verdict: decryptsInvalid('WRONG_SECRET'),
    build(plaintext, secret) {
      const at = flippableByte(plaintext);
      if (at === null) return 'no byte of its first 16 can change with the text staying a JSON object';
      const delivery = sealed(plaintext, secret);
      const raw = payloadBytes(delivery.body);
      raw[at] = (raw[at] ?? 0) ^ 1;
      const changed = Buffer.from(plaintext);
      changed[at] = (changed[at] ?? 0) ^ 1;
      return { plaintext: changed, body: withPayload(raw), signatureHeader: delivery.signatureHeader };
    },
  },
  {
    id: 'tampered_ciphertext',
    title: 'Tampered ciphertext',
    description:
      'One byte of the payload changed so that the padding of the last block is wrong: decryption fails. Answer 400 and do not process it.',
    verdict: notDecrypted('DECRYPTION_FAILED', 'SIGNATURE_OF_ANOTHER_DELIVERY'),
    build(plaintext, secret) {
      const delivery = sealed(plaintext, secret);
      const raw = payloadBytes(delivery.body);
      // The byte before the last block XORs into the last plaintext byte, the padding length: 0x80 makes it impossible.
      const at = raw.length - 17;
      raw[at] = (raw[at] ?? 0) ^ 0x80;
      return { ...delivery, body: withPayload(raw) };
    },
  },
  {
    id: 'truncated_payload',
    title: 'Truncated payload',
    description: 'The last 4 base64 characters of the payload cut off, as a proxy that cut the body would: not a whole number of blocks.',
    verdict: notDecrypted('PAYLOAD_NOT_BLOCK_ALIGNED', 'PAYLOAD_DAMAGED'),
    build(plaintext, secret) {
      const delivery = sealed(plaintext, secret);
      return { ...delivery, body: deliveryBody(extractPayload(delivery.body).slice(0, -4)) };
    },
  },
  {
    id: 'missing_signature',
    title: 'Missing signature header',
    description: 'Sent without X-Service-Signature: nothing to derive the key from, nothing to verify. Answer 400.',
    verdict: notDecrypted('SIGNATURE_MISSING', 'SIGNATURE_MISSING'),
    build: (plaintext, secret) => ({ ...sealed(plaintext, secret), signatureHeader: null }),
  },
  {
    id: 'signature_base64',
    title: 'Signature in base64',
    description:
      'X-Service-Signature carries the base64 of the digest instead of 64 hex characters: a malformed signature, which the service never sends. Answer 400.',
    verdict: notDecrypted('MALFORMED_SIGNATURE', 'SIGNATURE_IS_BASE64'),
    build(plaintext, secret) {
      const delivery = sealed(plaintext, secret);
      const hex = sign(plaintext, secret);
      return { ...delivery, signatureHeader: `sha256=${Buffer.from(hex, 'hex').toString('base64')}` };
    },
  },
  {
    id: 'key_from_uppercase_hex',
    title: 'AES key from uppercase hex',
    description:
      'Encrypted with the first 32 characters of the signature in UPPERCASE as the key; the right key is the lowercase hex. It does not decrypt.',
    verdict: notDecrypted('DECRYPTION_FAILED', 'KEY_FROM_UPPERCASE_HEX'),
    build(plaintext, secret) {
      const hex = sign(plaintext, secret);
      const key = Buffer.from(hex.slice(0, KEY_CHARS).toUpperCase(), 'ascii');
      return { plaintext, body: deliveryBody(encryptWithKey(plaintext, key)), signatureHeader: formatSignatureHeader(hex) };
    },
  },
  {
    id: 'payload_base64url',
    title: 'Payload in base64url',
    description: 'The payload re-encoded as base64url (- and _, no padding) on the way. The service sends standard base64.',
    verdict: notDecrypted('PAYLOAD_NOT_BASE64', 'PAYLOAD_IS_BASE64URL'),
    build(plaintext, secret) {
      const delivery = sealed(plaintext, secret);
      const url = extractPayload(delivery.body).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      return { ...delivery, body: deliveryBody(url) };
    },
  },
  {
    id: 'reserialised_body',
    title: 'Signed a re-serialised body',
    description:
      'The HMAC is of the JSON pretty-printed (2 spaces), the payload of the compact bytes: what a sender does that parses and stringifies between signing and encrypting. It decrypts; the signature does not verify over the bytes received.',
    verdict: decryptsInvalid('BODY_RESERIALISED'),
    build(plaintext, secret) {
      const value = parsedObject(plaintext);
      if (value === null) return 'the plaintext is not a JSON object';
      const signature = sign(JSON.stringify(value, null, 2), secret);
      return { plaintext, body: deliveryBody(encrypt(plaintext, signature)), signatureHeader: formatSignatureHeader(signature) };
    },
  },
  {
    id: 'stale_envelope',
    title: `Stale envelope (created_at ${STALE_HOURS} h ago)`,
    description:
      `The wire format has no timestamp header, so there is no stale signature: this is a correctly sealed delivery whose envelope created_at is ${STALE_HOURS} hours old (the event id kept). ` +
      'The doctor finds nothing wrong; only your own check of created_at, or de-duplication on the event id, can refuse it.',
    verdict: { decrypted: true, problem: null, signature_status: 'valid', hint: null },
    build(plaintext, secret) {
      const value = parsedObject(plaintext);
      if (value === null) return 'the plaintext is not a JSON object';
      const createdAt = new Date(Date.now() - STALE_HOURS * 3600_000).toISOString();
      return sealed(Buffer.from(JSON.stringify({ ...value, created_at: createdAt }), 'utf8'), secret);
    },
  },
];

export function findVariant(id: VariantId): Variant {
  const variant = variants.find((v) => v.id === id);
  if (!variant) throw new Error(`Unknown variant ${id}`);
  return variant;
}

/** "Not decrypted · DECRYPTION_FAILED · SIGNATURE_OF_ANOTHER_DELIVERY", "Decrypted · signature invalid · WRONG_SECRET", ... */
export function verdictLabel(verdict: DoctorVerdict): string {
  const parts = verdict.decrypted
    ? ['Decrypted', `signature ${verdict.signature_status}`]
    : ['Not decrypted', verdict.problem ?? 'DECRYPTION_FAILED'];
  return [...parts, verdict.hint ?? 'no hint'].join(' · ');
}
