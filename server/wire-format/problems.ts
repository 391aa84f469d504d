/** The steps at which reading a delivery fails with the crypto itself. */
export type CryptoProblem =
  | 'MALFORMED_SIGNATURE'
  | 'PAYLOAD_NOT_BASE64'
  | 'PAYLOAD_TOO_SHORT'
  | 'PAYLOAD_NOT_BLOCK_ALIGNED'
  | 'DECRYPTION_FAILED';

/**
 * Every reason a delivery does not open; the doctor diagnoses each. BODY_INCOMPLETE is set by the
 * inbox for a body cut off by its size cap or by the sender.
 */
export type DecryptionProblem = CryptoProblem | 'SIGNATURE_MISSING' | 'PLAINTEXT_NOT_JSON' | 'BODY_INCOMPLETE' | 'BODY_NOT_A_DELIVERY';

/** Why a payload or signature could not be used; `problem` says which step, the message how to fix it. */
export class WebhookCryptoError extends Error {
  readonly problem: CryptoProblem;

  constructor(problem: CryptoProblem, message: string) {
    super(message);
    this.name = 'WebhookCryptoError';
    this.problem = problem;
  }
}
