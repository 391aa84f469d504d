import { openDelivery, type OpenOptions, type SecretCandidate, type SignatureStatus } from '../wire-format/open.ts';
import type { DecryptionProblem } from '../wire-format/problems.ts';
import { diagnoseDecryption, diagnoseVerification, noSecretHint, uppercaseSignatureHint } from './doctor.ts';
import type { Hint } from './schemas.ts';

/** The two verdicts on one delivery, what was recovered, and the doctor's hints. */
export interface DeliveryVerdicts {
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

/** Opens a delivery (the body text or the bare payload) and adds the doctor's hints to the verdicts. */
export function judgeDelivery(
  payloadOrBody: string,
  signature: string | undefined,
  secrets: SecretCandidate[],
  options: OpenOptions,
): DeliveryVerdicts {
  const verdicts = withHints(payloadOrBody, signature, secrets, options);
  const uppercase = signature === undefined ? null : uppercaseSignatureHint(signature);
  return uppercase ? { ...verdicts, hints: [uppercase, ...verdicts.hints] } : verdicts;
}

function withHints(
  payloadOrBody: string,
  signature: string | undefined,
  secrets: SecretCandidate[],
  options: OpenOptions,
): DeliveryVerdicts {
  const opened = openDelivery(payloadOrBody, signature, secrets, options);
  if (!opened.decrypted) {
    return {
      decrypted: false,
      problem: opened.problem,
      error: opened.error,
      signatureHex: opened.signatureHex,
      plaintext: null,
      json: null,
      signatureStatus: 'unknown',
      verifiedWith: null,
      hints: failureHints(payloadOrBody, signature ?? '', opened.problem, opened.error),
    };
  }
  return {
    decrypted: true,
    problem: null,
    error: null,
    signatureHex: opened.signatureHex,
    plaintext: opened.plaintext,
    json: opened.json,
    signatureStatus: opened.signatureStatus,
    verifiedWith: opened.verifiedWith,
    hints:
      opened.signatureStatus === 'unknown'
        ? [noSecretHint()]
        : opened.signatureStatus === 'valid'
          ? []
          : invalidSignatureHints(opened.plaintextBytes, signature ?? '', secrets),
  };
}

function failureHints(payloadOrBody: string, signature: string, problem: DecryptionProblem, error: string): Hint[] {
  if (problem === 'BODY_NOT_A_DELIVERY' || problem === 'BODY_INCOMPLETE') return [{ code: problem, field: 'payload', message: error }];
  if (problem === 'SIGNATURE_MISSING') {
    return [
      { code: 'SIGNATURE_MISSING', field: 'signature', message: 'Send the header X-Service-Signature: sha256=<64 hex> with the delivery.' },
    ];
  }
  return diagnoseDecryption(payloadOrBody, signature, problem);
}

function invalidSignatureHints(plaintext: Buffer, signature: string, secrets: SecretCandidate[]): Hint[] {
  const diagnoses = secrets.map((candidate) => ({ candidate, hints: diagnoseVerification(plaintext, signature, candidate.secret) }));
  const specific = diagnoses.find((d) => d.hints.some((h) => h.code !== 'WRONG_SECRET' && h.code !== 'UPPERCASE_HEX'));
  if (specific) {
    return secrets.length > 1
      ? specific.hints.map((h) => ({ ...h, message: `${specific.candidate.label}: ${h.message}` }))
      : specific.hints;
  }
  const hints = diagnoses[0]?.hints ?? [];
  if (secrets.length === 1) return hints;
  return hints.map((h) =>
    h.code === 'WRONG_SECRET'
      ? {
          ...h,
          message: `None of the ${secrets.length} known secrets (${secrets.map((s) => s.label).join(', ')}) verifies the signature. ${h.message}`,
        }
      : h,
  );
}
