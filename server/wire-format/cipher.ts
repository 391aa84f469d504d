/**
 * The encryption: AES-256-CBC with PKCS7 padding; the key is the first 32 characters of the
 * lowercase hex signature taken as ASCII bytes; the payload is base64(IV (16 random bytes) || ciphertext).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type Bytes, toBuffer } from './bytes.ts';
import { WebhookCryptoError } from './problems.ts';
import { parseSignature } from './signature.ts';

export const IV_BYTES = 16;
export const KEY_CHARS = 32;
const BLOCK_BYTES = 16;

/** The AES-256 key: the first 32 characters of the lowercase hex signature, as ASCII bytes. */
export function deriveKey(signatureHex: string): Buffer {
  return Buffer.from(parseSignature(signatureHex).slice(0, KEY_CHARS), 'ascii');
}

/** base64(IV || AES-256-CBC(plaintext)). A fresh random IV unless one is given (tests, cross-checks). */
export function encrypt(plaintext: Bytes, signatureHex: string, iv: Uint8Array = randomBytes(IV_BYTES)): string {
  return encryptWithKey(plaintext, deriveKey(signatureHex), iv);
}

/**
 * encrypt() with the AES key given directly. Only for building deliberately broken deliveries
 * (a sender that derived the key the wrong way); a sender always uses encrypt().
 */
export function encryptWithKey(plaintext: Bytes, key: Buffer, iv: Uint8Array = randomBytes(IV_BYTES)): string {
  if (iv.byteLength !== IV_BYTES) throw new RangeError(`The IV must be ${IV_BYTES} bytes, not ${iv.byteLength}.`);
  if (key.length !== KEY_CHARS) throw new RangeError(`The AES-256 key must be ${KEY_CHARS} bytes, not ${key.length}.`);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
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
