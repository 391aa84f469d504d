import { extractPayload } from '../wire-format/body.ts';
import { decrypt } from '../wire-format/cipher.ts';
import { type DecryptionProblem, WebhookCryptoError } from '../wire-format/problems.ts';
import { parseSignature, verify } from '../wire-format/signature.ts';
import { diagnoseDecryption, diagnoseVerification, noSecretHint, uppercaseSignatureHint } from './doctor.ts';
import type { Hint } from './schemas.ts';

export type SignatureStatus = 'valid' | 'invalid' | 'unknown';
export type { DecryptionProblem };

/** A secret to verify with, and where it came from (shown as `verified_with`). */
export interface SecretCandidate {
  label: string;
  secret: string;
}

/** The two verdicts on one delivery, and what was recovered. */
export interface Inspection {
  decrypted: boolean;
  problem: DecryptionProblem | null;
  error: string | null;
  /** Lowercase hex of a well-formed signature, even when decryption failed. */
  signatureHex: string | null;
  plaintext: string | null;
  /** The plaintext parsed as JSON, null when it is not JSON. */
  json: unknown;
  signatureStatus: SignatureStatus;
  /** Label of the secret that verified the signature. */
  verifiedWith: string | null;
  hints: Hint[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface InspectOptions {
  /**
   * An inbox is strict: the body must be the delivery object {"payload": "..."} and the plaintext
   * JSON (a wrong key passes the padding check about once in 256 tries). The decrypt tool also
   * takes a bare payload and a plaintext that is not JSON.
   */
  strict: boolean;
}

function notADelivery(body: string): string | null {
  const trimmed = body.trim();
  if (trimmed === '') return 'The body is empty; a delivery body is {"payload": "<base64>"}.';
  if (!trimmed.startsWith('{')) return 'The body is not a JSON object; a delivery body is {"payload": "<base64>"}.';
  return null;
}

/**
 * Decrypts a delivery (the body text or the bare payload) with the key from its signature, then
 * verifies the signature with each known secret.
 */
export function inspectDelivery(
  payloadOrBody: string,
  signature: string | undefined,
  secrets: SecretCandidate[],
  options: InspectOptions,
): Inspection {
  const inspection = inspectStrictly(payloadOrBody, signature, secrets, options);
  const uppercase = signature === undefined ? null : uppercaseSignatureHint(signature);
  return uppercase ? { ...inspection, hints: [uppercase, ...inspection.hints] } : inspection;
}

function inspectStrictly(
  payloadOrBody: string,
  signature: string | undefined,
  secrets: SecretCandidate[],
  options: InspectOptions,
): Inspection {
  const failed = (problem: DecryptionProblem, error: string, hints: Hint[], signatureHex: string | null = null): Inspection => ({
    decrypted: false,
    problem,
    error,
    signatureHex,
    plaintext: null,
    json: null,
    signatureStatus: 'unknown',
    verifiedWith: null,
    hints,
  });

  const bodyProblem = options.strict ? notADelivery(payloadOrBody) : null;
  if (bodyProblem)
    return failed('BODY_NOT_A_DELIVERY', bodyProblem, [{ code: 'BODY_NOT_A_DELIVERY', field: 'payload', message: bodyProblem }]);
  if (signature === undefined || signature.trim() === '') {
    return failed(
      'SIGNATURE_MISSING',
      'The X-Service-Signature header is missing; without it the payload cannot be decrypted (the key comes from the signature).',
      [
        {
          code: 'SIGNATURE_MISSING',
          field: 'signature',
          message: 'Send the header X-Service-Signature: sha256=<64 hex> with the delivery.',
        },
      ],
    );
  }
  let signatureHex: string;
  try {
    signatureHex = parseSignature(signature);
  } catch (error) {
    return failed('MALFORMED_SIGNATURE', (error as Error).message, diagnoseDecryption(payloadOrBody, signature, 'MALFORMED_SIGNATURE'));
  }

  let plaintextBytes: Buffer;
  try {
    plaintextBytes = decrypt(extractPayload(payloadOrBody), signatureHex);
  } catch (error) {
    if (!(error instanceof WebhookCryptoError)) throw error;
    return failed(error.problem, error.message, diagnoseDecryption(payloadOrBody, signature, error.problem), signatureHex);
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
      diagnoseDecryption(payloadOrBody, signature, 'PLAINTEXT_NOT_JSON'),
      signatureHex,
    );
  }

  const verdict = verdictOf(plaintextBytes, signature, secrets);
  return {
    decrypted: true,
    problem: null,
    error: null,
    signatureHex,
    plaintext,
    json,
    ...verdict,
  };
}

function verdictOf(
  plaintext: Buffer,
  signature: string,
  secrets: SecretCandidate[],
): Pick<Inspection, 'signatureStatus' | 'verifiedWith' | 'hints'> {
  if (secrets.length === 0) return { signatureStatus: 'unknown', verifiedWith: null, hints: [noSecretHint()] };
  const match = secrets.find((candidate) => verify(plaintext, candidate.secret, signature));
  if (match) return { signatureStatus: 'valid', verifiedWith: match.label, hints: [] };

  const diagnoses = secrets.map((candidate) => ({ candidate, hints: diagnoseVerification(plaintext, signature, candidate.secret) }));
  const specific = diagnoses.find((d) => d.hints.some((h) => h.code !== 'WRONG_SECRET' && h.code !== 'UPPERCASE_HEX'));
  if (specific) {
    const hints =
      secrets.length > 1 ? specific.hints.map((h) => ({ ...h, message: `${specific.candidate.label}: ${h.message}` })) : specific.hints;
    return { signatureStatus: 'invalid', verifiedWith: null, hints };
  }
  const hints = diagnoses[0]?.hints ?? [];
  if (secrets.length === 1) return { signatureStatus: 'invalid', verifiedWith: null, hints };
  return {
    signatureStatus: 'invalid',
    verifiedWith: null,
    hints: hints.map((h) =>
      h.code === 'WRONG_SECRET'
        ? {
            ...h,
            message: `None of the ${secrets.length} known secrets (${secrets.map((s) => s.label).join(', ')}) verifies the signature. ${h.message}`,
          }
        : h,
    ),
  };
}
