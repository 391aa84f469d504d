import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import { decryptDelivery, DecryptFailure } from './decrypt.ts';
import { decryptBodySchema, decryptResultSchema } from './schemas.ts';

export function registerToolRoutes(api: Api): void {
  api.route(
    {
      method: 'post',
      path: '/api/tools/decrypt',
      tag: 'Tools',
      role: 'viewer',
      summary: 'Decrypt a webhook payload and verify its signature; explain what is wrong when it fails.',
      description:
        'Give the delivery body (`body`) or its `payload` string, the X-Service-Signature value (`sha256=<hex>` or bare hex) and, ' +
        'to verify, the webhook `secret`. `verified` is null without a secret. A payload that cannot be decrypted is a 400 whose ' +
        "`details` hold the doctor's hints (base64url, uppercase hex, raw digest, a signature of another delivery, ...); a signature " +
        'that does not verify is a 200 with `verified: false` and `hints`.',
      body: decryptBodySchema,
      response: decryptResultSchema,
    },
    async ({ body }) => {
      try {
        return decryptDelivery({ payloadOrBody: body.payload ?? body.body ?? '', signature: body.signature, secret: body.secret });
      } catch (error) {
        if (!(error instanceof DecryptFailure)) throw error;
        const field = (f: string) => (f === 'payload' && body.body !== undefined ? 'body.body' : `body.${f}`);
        throw new ApiError(
          'VALIDATION_ERROR',
          `Cannot decrypt: ${error.message}`,
          error.hints.map((h) => ({ path: field(h.field), message: `${h.code}: ${h.message}` })),
        );
      }
    },
  );
}
