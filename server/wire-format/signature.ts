/**
 * The signature: HMAC-SHA256 of the plaintext bytes keyed by the webhook secret, lowercase hex,
 * sent as `sha256=<hex>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Bytes, toBuffer } from './bytes.ts';
import { WebhookCryptoError } from './problems.ts';

export const SIGNATURE_PREFIX = 'sha256=';
export const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

/** HMAC-SHA256 of the plaintext bytes keyed by the secret (UTF-8), as 64 lowercase hex characters. */
export function sign(plaintext: Bytes, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(toBuffer(plaintext)).digest('hex');
}

/** The signature header value for a hex signature: `sha256=<hex>`. */
export function formatSignatureHeader(signatureHex: string): string {
  return `${SIGNATURE_PREFIX}${signatureHex}`;
}

/** The value without its `sha256=` prefix (in any case), when it has one. */
export function withoutSignaturePrefix(value: string): string {
  return value.toLowerCase().startsWith(SIGNATURE_PREFIX) ? value.slice(SIGNATURE_PREFIX.length) : value;
}

/**
 * The hex signature from a header value: `sha256=<64 hex>` or the bare 64 hex characters, returned
 * lowercase. Throws MALFORMED_SIGNATURE otherwise.
 */
export function parseSignature(value: string): string {
  const trimmed = value.trim();
  const hex = withoutSignaturePrefix(trimmed);
  if (!HEX_SIGNATURE.test(hex)) {
    throw new WebhookCryptoError(
      'MALFORMED_SIGNATURE',
      `The signature must be "sha256=" followed by 64 hex characters (or the 64 hex characters alone); got ${describeValue(trimmed)}.`,
    );
  }
  return hex.toLowerCase();
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

function describeValue(value: string): string {
  if (value === '') return 'an empty value';
  return value.length > 80 ? `"${value.slice(0, 77)}..." (${value.length} characters)` : `"${value}"`;
}
