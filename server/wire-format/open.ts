import { extractPayload, notADeliveryBody } from './body.ts';
import { decrypt } from './cipher.ts';
import { type DecryptionProblem, WebhookCryptoError } from './problems.ts';
import { parseSignature, verify } from './signature.ts';

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

/** A secret to verify with, and where it came from (shown as `verified_with`). */
export interface SecretCandidate {
  label: string;
  secret: string;
}

export type SignatureStatus = 'valid' | 'invalid' | 'unknown';

export interface OpenOptions {
  /**
   * An inbox is strict: the body must be the delivery object {"payload": "..."} and the plaintext
   * JSON (a wrong key passes the padding check about once in 256 tries). The decrypt tool also
   * takes a bare payload and a plaintext that is not JSON.
   */
  strict: boolean;
}

export interface Opened {
  decrypted: true;
  /** Lowercase hex of the signature. */
  signatureHex: string;
  plaintextBytes: Buffer;
  plaintext: string;
  /** The plaintext parsed as JSON, null when it is not JSON. */
  json: unknown;
  /** `unknown` when no secret was given. */
  signatureStatus: SignatureStatus;
  /** Label of the secret that verified the signature. */
  verifiedWith: string | null;
}

export interface NotOpened {
  decrypted: false;
  problem: DecryptionProblem;
  error: string;
  /** Lowercase hex of a well-formed signature, even when decryption failed. */
  signatureHex: string | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decrypts a delivery (the body text or the bare payload) with the key from its signature, then
 * verifies the signature with each known secret. Never throws for a bad delivery: the failure says
 * which step refused it.
 */
export function openDelivery(
  payloadOrBody: string,
  signature: string | undefined,
  secrets: SecretCandidate[],
  options: OpenOptions,
): Opened | NotOpened {
  const failed = (problem: DecryptionProblem, error: string, signatureHex: string | null = null): NotOpened => ({
    decrypted: false,
    problem,
    error,
    signatureHex,
  });

  const bodyProblem = options.strict ? notADeliveryBody(payloadOrBody) : null;
  if (bodyProblem) return failed('BODY_NOT_A_DELIVERY', bodyProblem);
  if (signature === undefined || signature.trim() === '') {
    return failed(
      'SIGNATURE_MISSING',
      'The X-Service-Signature header is missing; without it the payload cannot be decrypted (the key comes from the signature).',
    );
  }
  let signatureHex: string;
  try {
    signatureHex = parseSignature(signature);
  } catch (error) {
    return failed('MALFORMED_SIGNATURE', (error as Error).message);
  }

  let plaintextBytes: Buffer;
  try {
    plaintextBytes = decrypt(extractPayload(payloadOrBody), signatureHex);
  } catch (error) {
    if (!(error instanceof WebhookCryptoError)) throw error;
    return failed(error.problem, error.message, signatureHex);
  }

  let plaintext: string | null = null;
  let json: unknown = null;
  try {
    plaintext = utf8.decode(plaintextBytes);
    json = JSON.parse(plaintext);
  } catch {
    json = null;
  }
  if (plaintext === null || (options.strict && json === null)) {
    return failed(
      'PLAINTEXT_NOT_JSON',
      `The payload decrypted to bytes that are not ${plaintext === null ? 'UTF-8 text' : 'JSON'}: the key from this signature is not the one it was encrypted with.`,
      signatureHex,
    );
  }

  const match = secrets.find((candidate) => verify(plaintextBytes, candidate.secret, signature));
  return {
    decrypted: true,
    signatureHex,
    plaintextBytes,
    plaintext,
    json,
    signatureStatus: secrets.length === 0 ? 'unknown' : match ? 'valid' : 'invalid',
    verifiedWith: match?.label ?? null,
  };
}
