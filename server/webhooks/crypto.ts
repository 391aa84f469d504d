/**
 * The webhook wire format of spec 6.2, byte for byte, as pure functions. The sender, the
 * receiver, the decrypt tool and the CLI all use this module; it imports nothing but node:crypto.
 *
 * - signature: HMAC-SHA256 of the plaintext JSON bytes keyed by the webhook secret, lowercase hex
 * - key: the first 32 characters of that hex, taken as 32 ASCII bytes (AES-256)
 * - payload: base64(IV (16 random bytes) || AES-256-CBC ciphertext with PKCS7 padding)
 * - body: {"payload": "<payload>"}; header X-Service-Signature: sha256=<hex>
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_PREFIX = 'sha256=';
export const IV_BYTES = 16;
export const KEY_CHARS = 32;
const BLOCK_BYTES = 16;
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

export type CryptoProblem =
  | 'MALFORMED_SIGNATURE'
  | 'PAYLOAD_NOT_BASE64'
  | 'PAYLOAD_TOO_SHORT'
  | 'PAYLOAD_NOT_BLOCK_ALIGNED'
  | 'DECRYPTION_FAILED';

/** Why a payload or signature could not be used; `problem` says which step, the message how to fix it. */
export class WebhookCryptoError extends Error {
  readonly problem: CryptoProblem;

  constructor(problem: CryptoProblem, message: string) {
    super(message);
    this.name = 'WebhookCryptoError';
    this.problem = problem;
  }
}

export type Bytes = string | Uint8Array;

function toBuffer(value: Bytes): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** HMAC-SHA256 of the plaintext bytes keyed by the secret (UTF-8), as 64 lowercase hex characters. */
export function sign(plaintext: Bytes, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(toBuffer(plaintext)).digest('hex');
}

/** The X-Service-Signature header value for a hex signature: `sha256=<hex>`. */
export function formatSignatureHeader(signatureHex: string): string {
  return `${SIGNATURE_PREFIX}${signatureHex}`;
}

/**
 * The hex signature from a header value: `sha256=<64 hex>` or the bare 64 hex characters, returned
 * lowercase. Throws MALFORMED_SIGNATURE otherwise.
 */
export function parseSignature(value: string): string {
  const trimmed = value.trim();
  const hex = trimmed.toLowerCase().startsWith(SIGNATURE_PREFIX) ? trimmed.slice(SIGNATURE_PREFIX.length) : trimmed;
  if (!HEX_SIGNATURE.test(hex)) {
    throw new WebhookCryptoError(
      'MALFORMED_SIGNATURE',
      `The signature must be "sha256=" followed by 64 hex characters (or the 64 hex characters alone); got ${describeValue(trimmed)}.`,
    );
  }
  return hex.toLowerCase();
}

/** The AES-256 key: the first 32 characters of the lowercase hex signature, as ASCII bytes. */
export function deriveKey(signatureHex: string): Buffer {
  return Buffer.from(parseSignature(signatureHex).slice(0, KEY_CHARS), 'ascii');
}

/** base64(IV || AES-256-CBC(plaintext)). A fresh random IV unless one is given (tests, cross-checks). */
export function encrypt(plaintext: Bytes, signatureHex: string, iv: Uint8Array = randomBytes(IV_BYTES)): string {
  if (iv.byteLength !== IV_BYTES) throw new RangeError(`The IV must be ${IV_BYTES} bytes, not ${iv.byteLength}.`);
  const cipher = createCipheriv('aes-256-cbc', deriveKey(signatureHex), iv);
  return Buffer.concat([Buffer.from(iv), cipher.update(toBuffer(plaintext)), cipher.final()]).toString('base64');
}

/** The plaintext bytes of a payload. Throws WebhookCryptoError naming the step that failed. */
export function decrypt(payloadBase64: string, signatureHex: string): Buffer {
  return decryptWithKey(payloadBase64, deriveKey(signatureHex));
}

/**
 * decrypt() with the AES key given directly. Only for diagnosing senders that derived the key
 * the wrong way (e.g. from uppercase hex); a receiver always uses decrypt().
 */
export function decryptWithKey(payloadBase64: string, key: Buffer): Buffer {
  if (key.length !== KEY_CHARS) throw new RangeError(`The AES-256 key must be ${KEY_CHARS} bytes, not ${key.length}.`);
  const compact = payloadBase64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new WebhookCryptoError(
      'PAYLOAD_NOT_BASE64',
      'The payload is not standard base64 (A-Z, a-z, 0-9, +, / and = padding). Pass the "payload" string of the body as received, not the whole body.',
    );
  }
  const raw = Buffer.from(compact, 'base64');
  if (raw.length < IV_BYTES + BLOCK_BYTES) {
    throw new WebhookCryptoError(
      'PAYLOAD_TOO_SHORT',
      `The decoded payload has ${raw.length} bytes; it needs at least ${IV_BYTES + BLOCK_BYTES} (a 16-byte IV and one 16-byte block). It may be truncated.`,
    );
  }
  const ciphertext = raw.subarray(IV_BYTES);
  if (ciphertext.length % BLOCK_BYTES !== 0) {
    throw new WebhookCryptoError(
      'PAYLOAD_NOT_BLOCK_ALIGNED',
      `After the 16-byte IV the ciphertext has ${ciphertext.length} bytes, not a multiple of 16. The payload was altered or truncated.`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, raw.subarray(0, IV_BYTES));
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new WebhookCryptoError(
      'DECRYPTION_FAILED',
      'Decryption failed (bad PKCS7 padding): the key does not match. Use the X-Service-Signature of this same delivery; each delivery has its own signature and the key is its first 32 hex characters.',
    );
  }
}

/** Whether the signature is the HMAC of the plaintext under the secret (constant-time compare). */
export function verify(plaintext: Bytes, secret: string, signatureHex: string): boolean {
  let given: Buffer;
  try {
    given = Buffer.from(parseSignature(signatureHex), 'hex');
  } catch {
    return false;
  }
  const expected = Buffer.from(sign(plaintext, secret), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface SealedDelivery {
  /** The exact request body: {"payload":"<base64>"} */
  body: string;
  /** Lowercase hex HMAC of the plaintext. */
  signature: string;
  /** The X-Service-Signature header value, sha256=<hex>. */
  signatureHeader: string;
}

/** Everything a sender needs for one attempt: a fresh IV each call, so each attempt's payload differs. */
export function seal(plaintext: Bytes, secret: string, iv?: Uint8Array): SealedDelivery {
  const signature = sign(plaintext, secret);
  return {
    body: JSON.stringify({ payload: encrypt(plaintext, signature, iv) }),
    signature,
    signatureHeader: formatSignatureHeader(signature),
  };
}

export interface OpenedDelivery {
  plaintext: string;
  /** The parsed plaintext, or null when it is not JSON. */
  json: unknown;
  /** true/false when a secret was given, null without one (a receiver without the secret cannot re-validate). */
  verified: boolean | null;
}

/**
 * Decrypts a payload (the base64 string, or the request body text {"payload": ...}) with the key from
 * the signature header, and verifies the HMAC when the secret is known.
 */
export function open(payloadOrBody: string, signature: string, secret?: string | null): OpenedDelivery {
  const payload = extractPayload(payloadOrBody);
  const plaintextBytes = decrypt(payload, signature);
  const plaintext = plaintextBytes.toString('utf8');
  let json: unknown = null;
  try {
    json = JSON.parse(plaintext);
  } catch {
    json = null;
  }
  return { plaintext, json, verified: secret ? verify(plaintextBytes, secret, signature) : null };
}

/** The payload string from either the bare payload or a JSON body {"payload": "..."}. */
export function extractPayload(payloadOrBody: string): string {
  const trimmed = payloadOrBody.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw new WebhookCryptoError(
      'PAYLOAD_NOT_BASE64',
      'The body starts with "{" but is not valid JSON; send {"payload": "<base64>"} or the base64 string alone.',
    );
  }
  if (typeof parsed === 'object' && parsed !== null && 'payload' in parsed && typeof parsed.payload === 'string') return parsed.payload;
  throw new WebhookCryptoError(
    'PAYLOAD_NOT_BASE64',
    'The JSON body has no string field "payload"; a delivery body is {"payload": "<base64>"}.',
  );
}

function describeValue(value: string): string {
  if (value === '') return 'an empty value';
  return value.length > 80 ? `"${value.slice(0, 77)}..." (${value.length} characters)` : `"${value}"`;
}
