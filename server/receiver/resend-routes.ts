import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { resendMessage, resendOptions } from './resend.ts';
import { resendBodySchema, resendOptionsSchema, resendResultSchema } from './resend-schemas.ts';
import { messageParamsSchema } from './schemas.ts';

const PATH = '/api/inboxes/uuid/{uuid}/messages/{message_uuid}/resend';

export function registerResendRoutes(api: Api, ctx: AppContext, tag: string): void {
  api.route(
    {
      method: 'get',
      path: PATH,
      tag,
      summary: 'What a re-seal of this message can use: the known secrets (labels only), the plaintext to edit, the broken variants.',
      params: messageParamsSchema,
      response: resendOptionsSchema,
    },
    async ({ params, principal }) => resendOptions(ctx, principal.organizationUuid, params.uuid, params.message_uuid),
  );

  api.route(
    {
      method: 'post',
      path: PATH,
      tag,
      summary: "Re-encrypt and re-sign the message's JSON (as edited) with a webhook or inbox secret, and send it like a delivery.",
      description:
        'The plaintext (default: the message as decrypted) is sealed exactly as the service seals a delivery and POSTed with its headers ' +
        '(Content-Type and X-Service-Signature) to target_url, default this inbox, as a new delivery (attempt 1 of a new delivery id in this inbox). ' +
        'The secret is `secret` if given, else the known one named by `secret_label`, else the one that verified the message. ' +
        '`variant` sends a broken delivery instead, built so that the doctor says what the variant is named by. ' +
        'Answers with what the target answered (status, headers, first 2 KB, time) and, for an inbox of this server, the message it became. ' +
        'target_url follows the webhook URL rules (400). A target that does not answer is a 502: 5 s to connect, 15 s for the answer.',
      params: messageParamsSchema,
      body: resendBodySchema,
      response: resendResultSchema,
      errors: [502],
    },
    async ({ params, body, principal }) => resendMessage(ctx, principal.organizationUuid, params.uuid, params.message_uuid, body),
  );
}
