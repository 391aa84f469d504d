import type { DecryptionProblem } from '../wire-format/problems.ts';
import { judgeDelivery } from './verdicts.ts';
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
  const verdicts = judgeDelivery(input.payloadOrBody, input.signature, secrets, { strict: false });
  if (!verdicts.decrypted || verdicts.plaintext === null) {
    throw new DecryptFailure(
      verdicts.problem ?? 'DECRYPTION_FAILED',
      verdicts.error ?? 'The payload could not be decrypted.',
      verdicts.hints,
    );
  }
  const hints = [...verdicts.hints];
  if (verdicts.json === null) {
    hints.push({
      code: 'PLAINTEXT_NOT_JSON',
      field: 'payload',
      message:
        'The payload decrypted, but not to JSON. Deliveries carry a JSON envelope; this usually means the signature belongs to another delivery.',
    });
  }
  return {
    plaintext: verdicts.plaintext,
    json: verdicts.json,
    verified: verdicts.signatureStatus === 'unknown' ? null : verdicts.signatureStatus === 'valid',
    hints,
  };
}
