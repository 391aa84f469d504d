import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from '../startup-error.ts';
import { decryptDelivery, DecryptFailure } from '../tools/decrypt.ts';
import type { Hint } from '../tools/schemas.ts';
import { SIGNATURE_HEADER } from '../wire-format/headers.ts';
import type { Command } from './command.ts';
import { EXIT } from './exit-codes.ts';

function readBody(file: string | undefined): string {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY)
      throw new StartupError('decrypt reads the delivery body from FILE or from stdin; give a FILE or pipe the body in.');
    return fs.readFileSync(0, 'utf8');
  }
  const resolved = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  try {
    return fs.readFileSync(resolved, 'utf8');
  } catch (error) {
    throw new StartupError(`Cannot read ${resolved}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

function printHints(hints: Hint[]): void {
  for (const hint of hints) process.stderr.write(`  hint (${hint.code}, ${hint.field}): ${hint.message}\n`);
}

export const decryptCommand: Command = {
  name: 'decrypt',
  summary:
    'Decrypt a webhook delivery body and verify its signature; exit 0 valid, 1 invalid or undecryptable, 3 not verified (no --secret), 2 a mistake.',
  usage: 'decrypt [FILE] --signature SIG [--secret SECRET] [--full]',
  options: { signature: { type: 'string' }, secret: { type: 'string' }, full: { type: 'boolean' } },
  allowPositionals: true,
  help: {
    signature: `The ${SIGNATURE_HEADER} header value: sha256=<64 hex> or the bare hex (required)`,
    secret: 'The webhook secret, to verify the signature. Without it the payload is decrypted but not verified (exit 3)',
    full: 'Print {plaintext, json, verified, hints} instead of the decrypted JSON alone',
  },
  async run(values, positionals) {
    if (positionals.length > 1) throw new StartupError(`decrypt takes one FILE (or stdin), not ${positionals.length}.`);
    const signature = values.signature;
    if (typeof signature !== 'string' || signature.trim() === '') {
      throw new StartupError(`decrypt needs --signature "sha256=<hex>", the ${SIGNATURE_HEADER} header of the same delivery.`);
    }
    const secret = typeof values.secret === 'string' ? values.secret : undefined;
    const body = readBody(positionals[0]);

    try {
      const result = decryptDelivery({ payloadOrBody: body, signature, secret });
      const shown = values.full ? result : (result.json ?? result.plaintext);
      process.stdout.write(`${typeof shown === 'string' ? shown : JSON.stringify(shown, null, 2)}\n`);
      if (result.verified === true) process.stderr.write('Signature: valid\n');
      else if (result.verified === false) process.stderr.write('Signature: INVALID\n');
      else process.stderr.write('Signature: not verified (no --secret given)\n');
      printHints(result.hints);
      if (result.verified === null) return EXIT.unverified;
      return result.verified ? EXIT.ok : EXIT.notMet;
    } catch (error) {
      if (!(error instanceof DecryptFailure)) throw error;
      process.stderr.write(`Cannot decrypt: ${error.message}\n`);
      printHints(error.hints);
      return EXIT.notMet;
    }
  },
};
