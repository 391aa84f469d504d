/** The exit statuses of every qr-sandbox command: one meaning per number (docs/cli.md, "Exit codes"). */
export const EXIT = {
  /** Done: the command did its work (also when nothing matched), the condition was met, the signature is valid. */
  ok: 0,
  /** Ran, and the answer is no: wait timed out, the import task failed, decrypt found the signature invalid or could not decrypt. */
  notMet: 1,
  /** A mistake or a failure: unknown command, bad option or input, no server, the server refused or went away; stderr says what to do. */
  error: 2,
  /** decrypt only: decrypted, but not verified (no --secret given). */
  unverified: 3,
} as const;
