import type { DecryptionProblem } from '../wire-format/problems.ts';
import { inspectDelivery } from './inspect.ts';
import type { DecryptResult, Hint } from './schemas.ts';

export interface DecryptInput {
  /** The bare base64 payload, or the whole body {"payload": ...}. */
  payloadOrBody: string;
  signature: string;
  secret?: string | null;
}

/** A delivery that could not be decrypted: why, and the doctor's hints. */
export class DecryptFailure extends Error {
  readonly problem: DecryptionProblem;
  readonly hints: Hint[];

  constructor(problem: DecryptionProblem, message: string, hints: Hint[]) {
    super(message);
    this.name = 'DecryptFailure';
    this.problem = problem;
    this.hints = hints;
  }
}

/** The decrypt tool of the API and the CLI: plaintext, JSON and signature verdict, or a DecryptFailure. */
export function decryptDelivery(input: DecryptInput): DecryptResult {
  const secrets = input.secret ? [{ label: 'the given secret', secret: input.secret }] : [];
  const inspection = inspectDelivery(input.payloadOrBody, input.signature, secrets, { strict: false });
  if (!inspection.decrypted || inspection.plaintext === null) {
    throw new DecryptFailure(
      inspection.problem ?? 'DECRYPTION_FAILED',
      inspection.error ?? 'The payload could not be decrypted.',
      inspection.hints,
    );
  }
  const hints = [...inspection.hints];
  if (inspection.json === null) {
    hints.push({
      code: 'PLAINTEXT_NOT_JSON',
      field: 'payload',
      message:
        'The payload decrypted, but not to JSON. Deliveries carry a JSON envelope; this usually means the signature belongs to another delivery.',
    });
  }
  return {
    plaintext: inspection.plaintext,
    json: inspection.json,
    verified: inspection.signatureStatus === 'unknown' ? null : inspection.signatureStatus === 'valid',
    hints,
  };
}
