import { pipeline } from 'node:stream/promises';
import { DEFAULT_INBOX_WAITS_PER_KEY, DEFAULT_INBOX_WAITS_PER_ORGANIZATION } from './limits.ts';
import { z } from 'zod';
import { requireRole } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import { organizationGet, resourceRoutes } from '../http/resource-routes.ts';
import { exportChunks } from './export.ts';
import { headerObject, parsePairs } from './headers.ts';
import { checkRelayUrl, createInbox, deleteInbox, getInbox, listInboxes, updateInbox } from './inboxes.ts';
import { clearMessages, findMessageRow, getMessageParts, listMessages } from './messages.ts';
import { writeMessageJson } from './message-json.ts';
import { waitForMessages } from './message-wait.ts';
import { registerInboxReceiver } from './receiver-route.ts';
import { relayMessage } from './relay.ts';
import { registerResendRoutes } from './resend-routes.ts';
import { reverifyMessages } from './reverify.ts';
import {
  createInboxBodySchema,
  exportQuerySchema,
  inboxGetQuerySchema,
  inboxListQuerySchema,
  inboxPageSchema,
  inboxParamsSchema,
  inboxSchema,
  messageListQuerySchema,
  messagePageSchema,
  messageParamsSchema,
  messageSchema,
  messageWaitQuerySchema,
  messageWaitSchema,
  relaySchema,
  MAX_WAIT_SECONDS,
  replayBodySchema,
  updateInboxBodySchema,
} from './schemas.ts';

const TAG = 'Webhook inspector';

export function registerReceiverRoutes(api: Api, ctx: AppContext): void {
  registerInboxReceiver(api, ctx);

  const inboxes = resourceRoutes(api, { path: '/api/inboxes', tag: TAG, params: inboxParamsSchema, item: inboxSchema });
  inboxes.create(
    {
      summary: 'Create an inbox: a URL that receives, stores, decrypts and verifies webhook deliveries.',
      body: createInboxBodySchema,
    },
    (body) => createInbox(ctx, body),
  );
  inboxes.list({ summary: "List the organization's inboxes.", query: inboxListQuerySchema, response: inboxPageSchema }, (query) =>
    listInboxes(ctx, query),
  );
  inboxes.get(
    { summary: 'Get one inbox; include_secrets=true (editor) adds its secrets.', query: inboxGetQuerySchema },
    (org, uuid, { query, principal }) => {
      if (query.include_secrets) requireRole(principal, 'editor');
      return getInbox(ctx, org, uuid, query.include_secrets === true);
    },
  );
  inboxes.update(
    {
      summary: 'Change the name, secrets, fault injection (response) or forward_to of an inbox.',
      body: updateInboxBodySchema,
    },
    (org, uuid, body) => updateInbox(ctx, org, uuid, body),
  );
  inboxes.remove({ summary: 'Delete an inbox with all its messages.' }, (org, uuid) => deleteInbox(ctx, org, uuid));
  inboxes.list(
    {
      path: '/api/inboxes/uuid/{uuid}/messages',
      summary: 'List received messages, newest first, with verdicts, the start of each body and the decrypted envelope.',
      description:
        'Filters: event_type, decrypted, signature_status, duplicate, from, to (received time). Pages like every list. ' +
        'Each item carries the start of its body (body_excerpted, body_size) and its envelope only when small (envelope_omitted), ' +
        'so a page stays small whatever the messages hold; GET one message for all of it.',
      params: inboxParamsSchema,
      query: messageListQuerySchema,
      response: messagePageSchema,
    },
    (query, params) => listMessages(ctx, params.uuid, query),
  );
  organizationGet(
    api,
    {
      path: '/api/inboxes/uuid/{uuid}/messages/wait',
      tag: TAG,
      summary: 'Wait for messages: answers as soon as messages received after `after` (and passing the filters) are there, oldest first.',
      description:
        `A long-poll: when none is there yet the request is held until one arrives or timeout_s passes (at most ${MAX_WAIT_SECONDS} s; ` +
        'then timed_out is true and messages empty). Call it again with next_after to follow the inbox without missing or repeating a message. ' +
        'Filters as in the messages list. 404 when `after` names no message or event of the inbox. ' +
        `429 with Retry-After when the API key already holds ${DEFAULT_INBOX_WAITS_PER_KEY} waits, or the organization ${DEFAULT_INBOX_WAITS_PER_ORGANIZATION} ` +
        '(serve --inbox-waits-per-key, --inbox-waits-per-organization). At the connection cap a wait may be ended early (timed_out, and the connection closed) ' +
        'to make room for another request: call again, as after a timeout.',
      params: inboxParamsSchema,
      query: messageWaitQuerySchema,
      response: messageWaitSchema,
      errors: [404, 429],
    },
    (query, { params, res, principal }) => waitForMessages(ctx, principal, params.uuid, query, res),
  );
  inboxes.remove({ path: '/api/inboxes/uuid/{uuid}/messages', summary: 'Delete all messages of an inbox.' }, (org, uuid) =>
    clearMessages(ctx, org, uuid),
  );

  api.route(
    {
      method: 'post',
      path: '/api/inboxes/uuid/{uuid}/reverify',
      tag: TAG,
      summary: 'Judge every stored message again with the secrets known now (after adding a secret or registering a webhook here).',
      params: inboxParamsSchema,
      response: z.object({ checked: z.number().int(), changed: z.number().int().describe('Messages whose verdicts changed') }),
    },
    async ({ params, principal }) => reverifyMessages(ctx, principal.organizationUuid, params.uuid),
  );

  api.route(
    {
      method: 'get',
      path: '/api/inboxes/uuid/{uuid}/messages/{message_uuid}',
      tag: TAG,
      summary: 'Get one message: raw request, verdicts, hints, envelope, forwards and replays.',
      description: 'The whole body and envelope (lists carry only their start); the answer is written as it is read, slice by slice.',
      params: messageParamsSchema,
      response: messageSchema,
    },
    async ({ params, principal, res }) => {
      const { fields, body, utf8 } = await getMessageParts(ctx, principal.organizationUuid, params.uuid, params.message_uuid);
      await writeMessageJson(res, fields, body, utf8);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/inboxes/uuid/{uuid}/messages/{message_uuid}/body',
      tag: TAG,
      summary: 'The exact body bytes of a message, with the Content-Type it came with.',
      params: messageParamsSchema,
      responseContent: { '*/*': 'The body as received, with the Content-Type it came with' },
    },
    async ({ params, principal, res }) => {
      const row = await findMessageRow(ctx, principal.organizationUuid, params.uuid, params.message_uuid);
      const contentType = headerObject(parsePairs(row.raw_headers))['content-type'];
      res.status(200).type(contentType && /^[\w.+-]+\/[\w.+-]+/.test(contentType) ? contentType : 'application/octet-stream');
      res.setHeader('Content-Disposition', `attachment; filename="message-${row.uuid}.body"`);
      res.end(row.body);
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/inboxes/uuid/{uuid}/messages/{message_uuid}/replay',
      tag: TAG,
      summary: 'Send a stored message again, bytes and headers unchanged, to a URL; answers with what that URL answered.',
      description:
        "url defaults to the inbox's forward_to. https anywhere; http only to this machine. Redirects are not followed; 15 s timeout.",
      params: messageParamsSchema,
      body: replayBodySchema,
      response: relaySchema,
    },
    async ({ params, body, principal }) => {
      const row = await findMessageRow(ctx, principal.organizationUuid, params.uuid, params.message_uuid);
      const inbox = await getInbox(ctx, principal.organizationUuid, params.uuid, false);
      const url = body?.url ?? inbox.forward_to;
      if (!url)
        throw new ApiError('VALIDATION_ERROR', 'Give the url to replay to; this inbox has no forward_to to default to.', [
          { path: 'body.url', message: 'Required' },
        ]);
      const target = await checkRelayUrl(ctx, principal.organizationUuid, url, 'body.url', 'replay');
      return relayMessage(ctx, row, 'replay', url, target);
    },
  );

  registerResendRoutes(api, ctx, TAG);

  organizationGet(
    api,
    {
      path: '/api/inboxes/uuid/{uuid}/export',
      tag: TAG,
      summary: 'Download messages as JSON or HAR 1.2 (oldest first). X-Service-Signature is masked unless include_signature=true.',
      description: 'Takes the filters of the messages list.',
      params: inboxParamsSchema,
      query: exportQuerySchema,
      response: z.union([
        z
          .object({ exported_on: z.string(), signature_masked: z.boolean(), inbox: inboxSchema, messages: z.array(messageSchema) })
          .meta({ id: 'InboxExport' }),
        z
          .object({ log: z.record(z.string(), z.unknown()).describe('A HAR 1.2 log: version, creator, comment, pages, entries') })
          .meta({ id: 'HarExport' }),
      ]),
    },
    async (query, { params, principal, res }) => {
      const inbox = await getInbox(ctx, principal.organizationUuid, params.uuid, false);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const filename = `inbox-${inbox.uuid.slice(0, 8)}-${stamp}.${query.format === 'har' ? 'har' : 'json'}`;
      res.status(200).type('application/json');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      await pipeline(exportChunks(ctx, inbox, query), res);
    },
  );
}
