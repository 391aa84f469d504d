import { extractPayload } from './body.ts';
import { decrypt } from './cipher.ts';
import { verify } from './signature.ts';

export interface OpenedDelivery {
  plaintext: string;
  /** The parsed plaintext, or null when it is not JSON. */
  json: unknown;
  /** true/false when a secret was given, null without one (a receiver without the secret cannot re-validate). */
  verified: boolean | null;
}

/**
 * Decrypts a payload (the base64 string, or the request body text {"payload": ...}) with the key from
 * the signature header, and verifies the HMAC when the secret is known. Throws WebhookCryptoError.
 */
export function open(payloadOrBody: string, signature: string, secret?: string | null): OpenedDelivery {
  const plaintextBytes = decrypt(extractPayload(payloadOrBody), signature);
  const plaintext = plaintextBytes.toString('utf8');
  let json: unknown = null;
  try {
    json = JSON.parse(plaintext);
  } catch {
    json = null;
  }
  return { plaintext, json, verified: secret ? verify(plaintextBytes, secret, signature) : null };
}
