import { z } from 'zod';
import type { Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Api, ResponseDoc } from '../http/api.ts';
import { ApiError, errorBodySchema, notFound } from '../http/errors.ts';
import { MAX_RELAY_HOPS, RELAY_HOP_HEADER, headerObject, parsePairs, relayHops } from './headers.ts';
import type { CheckedTarget } from '../webhooks/pinned-fetch.ts';
import { checkRelayUrl } from './inboxes.ts';
import type { MessageSummaryField } from '../../common/message-summary.ts';
import { readRawBody } from './raw-body.ts';
import {
  judge,
  planAnswer,
  recordAnswer,
  storeRaw,
  writeVerdict,
  type AnswerKind,
  type PlannedAnswer,
  type RawDelivery,
  type StoredDelivery,
  type Verdict,
} from './receive.ts';
import {
  DEFAULT_INBOX_BYTES_PER_MINUTE,
  DEFAULT_INBOX_FORWARD_QUEUE,
  DEFAULT_INBOX_FORWARDS,
  describeBytes,
  inboxLimits,
} from './limits.ts';
import { forwardQueue } from './forward-queue.ts';
import { intakeTurns } from './intake-turns.ts';
import { intakeRate, MIN_REQUEST_COST } from './intake-rate.ts';
import { recordRefusedRelay, relayMessage } from './relay.ts';
import { receiverRuntime } from './runtime.ts';
import { dropOldestMessages, findInbox, findMessage, type InboxRow, type MessageRow } from './store.ts';
import { inboxFaultAnswerSchema, inboxParamsSchema, inboxReceiptSchema, type Message, type Relay } from './schemas.ts';
import { inboxRuleBodySchema } from './rule-schemas.ts';

const DESCRIPTION =
  'Where deliveries go: no Authorization. The request is stored raw (method, headers, exact body bytes, time) ' +
  'before anything else, then decrypted with the key from X-Service-Signature and verified with the secrets known for the ' +
  'inbox. Answers 200 at once; 400 when the body cannot be decrypted or the signature header is malformed; 413 over the body limit (1 MB by default; ' +
  'a larger Content-Length is answered before the body is read); ' +
  "unless the first of the inbox's rules that matches (by event, attempt number or the Nth message) answers otherwise: " +
  'a status and body, a delay, or a dropped connection. Never 500. ' +
  'Every method is accepted and stored; the answer carries X-Inbox-Message-Uuid. An inbox keeps its newest ' +
  'max_messages (1000 by default); older ones are dropped and counted in dropped_messages. A request relayed by an inbox ' +
  '(X-QR-Sandbox-Forwarded) is stored but not forwarded again. An inbox with forward_answers forwards while the sender waits ' +
  "and answers with the app's status and body (or closes the connection when the app gave no answer), unless a rule answered. " +
  'Each inbox takes at most ' +
  `${describeBytes(DEFAULT_INBOX_BYTES_PER_MINUTE)} of requests per minute by default (429 with Retry-After past it, not stored). ` +
  `Forwards run ${DEFAULT_INBOX_FORWARDS} at a time with ${DEFAULT_INBOX_FORWARD_QUEUE} waiting; past that a message is not ` +
  'forwarded and its forward record says so.';

const METHODS = ['post', 'put', 'patch', 'delete', 'get'] as const;

const RULE_TEXT = { 'text/plain': "A matching rule's own text body" };

/** A status the inbox answers itself, which a matching rule may answer too, with its own body; 204 and 304 without one. */
function ruleOr(description: string, own: z.ZodType | null): ResponseDoc {
  const rule = "A matching rule's status, with the fault answer below or the rule's own body";
  const bodies = [inboxFaultAnswerSchema, inboxRuleBodySchema];
  return {
    description: description ? `${description}; or: ${rule.charAt(0).toLowerCase()}${rule.slice(1)}` : `${rule} (204 and 304 without one)`,
    schema: z.union(own ? [own, ...bodies] : bodies),
    content: RULE_TEXT,
  };
}

export function registerInboxReceiver(api: Api, ctx: AppContext): void {
  for (const method of METHODS) {
    api.publicRoute(
      {
        method,
        path: '/inbox/{uuid}',
        tag: 'Inbox receiver',
        summary: method === 'post' ? 'Receive a webhook delivery.' : `Receive a ${method.toUpperCase()} request (stored like a delivery).`,
        description: DESCRIPTION,
        params: inboxParamsSchema,
        bodyKind: 'custom',
        ...(method === 'get' || method === 'delete'
          ? {}
          : {
              requestBody: {
                description:
                  'A delivery body, {"payload": "<base64>"}, with the header X-Service-Signature: sha256=<hex>. Any bytes are stored.',
                content: {
                  'application/json': { schema: { type: 'object', properties: { payload: { type: 'string' } } } },
                  '*/*': { schema: {} },
                },
              },
            }),
        successDescription: "Stored (and decrypted when it could be); or a matching rule's answer",
        response: z.union([inboxReceiptSchema, inboxFaultAnswerSchema, inboxRuleBodySchema]),
        responseContent: RULE_TEXT,
        responses: {
          400: ruleOr('Stored, but it cannot be decrypted or its signature header is malformed', errorBodySchema),
          413: ruleOr('Over 1 MB: its start is stored', errorBodySchema),
          429: {
            ...ruleOr(
              `Not stored: the inbox took its allowance of request bytes for the minute (${describeBytes(DEFAULT_INBOX_BYTES_PER_MINUTE)} by default, serve --inbox-max-mb-per-minute); try again after Retry-After seconds`,
              errorBodySchema,
            ),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          500: ruleOr("Never answered by the inbox itself, only passed on from your app's answer (forward_answers)", null),
          503: {
            ...ruleOr('This machine could not store it (disk full); try again', errorBodySchema),
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          default: ruleOr('', null),
        },
        omitErrors: [415, 507],
        errors: [404],
      },
      async ({ params, req, res }) => {
        const inbox = await findInbox(ctx.db.kysely, params.uuid);
        if (!inbox) throw notFound(`Inbox ${params.uuid}`);
        await receive(ctx, inbox, req, res);
      },
    );
  }
}

/** Resolves 'elapsed' after ms, or earlier when the sender hangs up or the server stops. */
function waitUnlessGone(ms: number, res: Response, stop: AbortSignal): Promise<'elapsed' | 'gone' | 'stopping'> {
  return new Promise((resolve) => {
    const done = (outcome: 'elapsed' | 'gone' | 'stopping') => {
      clearTimeout(timer);
      res.off('close', onClose);
      stop.removeEventListener('abort', onStop);
      resolve(outcome);
    };
    if (stop.aborted) {
      resolve('stopping');
      return;
    }
    const onClose = () => done('gone');
    const onStop = () => done('stopping');
    const timer = setTimeout(() => done('elapsed'), ms);
    res.on('close', onClose);
    stop.addEventListener('abort', onStop);
  });
}

/**
 * 429 before the body is read, nothing stored. The connection closes after the answer rather than
 * reading the rest of the body: a flood's bodies are never read. Written directly: a flood gets thousands.
 */
function refuseOverRate(res: Response, bytesPerMinute: number, retryAfterSeconds: number): void {
  const text = JSON.stringify({
    error: {
      code: 'TOO_MANY_REQUESTS',
      message: `This inbox takes at most ${describeBytes(bytesPerMinute)} of requests per minute (serve --inbox-max-mb-per-minute); this request was not stored. Try again in ${retryAfterSeconds} s.`,
    },
  });
  res.writeHead(429, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Retry-After': String(retryAfterSeconds),
    Connection: 'close',
  });
  res.end(text);
}

/** Stores the request raw, keeps the inbox within its cap and judges the request; null when it could not be stored. */
async function storeAndJudge(
  ctx: AppContext,
  inbox: InboxRow,
  raw: RawDelivery,
): Promise<{ stored: StoredDelivery; verdict: Verdict | null } | { notStored: true; diskFull: boolean }> {
  let stored: StoredDelivery;
  try {
    stored = await storeRaw(ctx, inbox, raw);
  } catch (error) {
    // Not a 500: the request is fine, this machine could not keep it (disk full, inbox deleted meanwhile). The sender retries.
    const diskFull = ctx.disk.recognise(error);
    ctx.logger.error({ err: error, inbox_uuid: inbox.uuid }, 'inbox: could not store a request');
    return { notStored: true, diskFull };
  }
  ctx.wal.countInboxWrite(raw.body.length * 2);
  try {
    await dropOldestMessages(ctx.db.kysely, inbox.uuid, inboxLimits(ctx.config).maxMessages);
  } catch (error) {
    ctx.logger.error({ err: error, inbox_uuid: inbox.uuid }, 'inbox: could not drop its oldest messages');
  }
  try {
    return { stored, verdict: await judge(ctx, inbox, stored, raw) };
  } catch (error) {
    ctx.logger.error({ err: error, message_uuid: stored.uuid }, 'inbox: could not judge a stored request');
    return { stored, verdict: null };
  }
}

async function receive(ctx: AppContext, inbox: InboxRow, req: Request, res: Response): Promise<void> {
  const runtime = receiverRuntime(ctx);
  const started = performance.now();
  const limits = inboxLimits(ctx.config);
  const rate = intakeRate(ctx);
  const declared = Number(req.headers['content-length']);
  const announced = Number.isSafeInteger(declared) && declared >= 0;
  const overRate = rate.take(inbox.uuid, announced ? Math.min(declared, limits.maxBodyBytes) : 0);
  if (overRate) {
    refuseOverRate(res, limits.bytesPerMinute, overRate.retryAfterSeconds);
    return;
  }
  const read = await readRawBody(req, limits.maxBodyBytes);
  if (!announced) rate.charge(inbox.uuid, read.body.length - MIN_REQUEST_COST);
  const raw: RawDelivery = {
    method: req.method,
    path: req.originalUrl,
    rawHeaders: req.rawHeaders,
    ...read,
    maxBodyBytes: limits.maxBodyBytes,
    remoteAddress: req.socket.remoteAddress ?? null,
  };
  const turns = intakeTurns(ctx);
  const intake = await turns.run(() => storeAndJudge(ctx, inbox, raw));
  if ('notStored' in intake) {
    const error503 = intake.diskFull
      ? new ApiError(
          'INSUFFICIENT_STORAGE',
          'This request was not stored: the disk of the machine running QR Sandbox is full. Send it again after Retry-After seconds.',
        )
      : new ApiError('INTERNAL', 'The inbox could not store this request; try again.');
    res.status(503).setHeader('Retry-After', '5').json(error503.toBody());
    return;
  }
  const { stored, verdict } = intake;
  const elapsed = () => Math.round(performance.now() - started);

  const plan = planAnswer(inbox, stored, raw, verdict);
  const waits = !raw.aborted && plan.delayMs > 0;
  const forwardTo = forwardsNow(inbox, plan) && !raw.aborted && !runtime.stopped ? inbox.forward_to : null;
  let verdictWritten = false;
  if ((waits || forwardTo) && verdict) {
    // Written before the wait, so the message shows its verdicts while its answer is delayed.
    try {
      await turns.run(() => writeVerdict(ctx, stored.uuid, verdict));
      verdictWritten = true;
    } catch (error) {
      ctx.logger.error({ err: error, message_uuid: stored.uuid }, 'inbox: could not record the verdict');
    }
  }
  const waited = raw.aborted ? 'gone' : waits ? await waitUnlessGone(plan.delayMs, res, runtime.signal) : 'elapsed';
  const forwarded = forwardTo && waited === 'elapsed' ? await forwardWhileWaiting(ctx, inbox, stored.uuid, forwardTo, res) : null;
  const answer = forwarded ? forwarded.answer : plan;
  const kind: AnswerKind = waited === 'gone' || forwarded?.senderGone ? 'client_gone' : answer.kind;
  const status = kind === 'client_gone' ? null : answer.status;
  const afterMs = elapsed();
  // Recorded before it is sent, so whoever got the answer finds it in the message.
  try {
    await turns.run(() => recordAnswer(ctx, stored.uuid, kind, status, afterMs, verdictWritten ? null : verdict, answer.rule));
  } catch (error) {
    ctx.logger.error({ err: error, message_uuid: stored.uuid }, 'inbox: could not record the answer');
  }
  if (kind === 'dropped' || kind === 'forward_failed') {
    res.socket?.destroy();
  } else if (status !== null) {
    res.setHeader('X-Inbox-Message-Uuid', stored.uuid);
    if (raw.truncated || waited === 'stopping') res.setHeader('Connection', 'close');
    if (status === 204 || status === 304) res.status(status).end();
    else if (forwarded) res.status(status).type(forwarded.contentType).send(answer.body);
    else if (typeof answer.body === 'string') res.status(status).type('text/plain').send(answer.body);
    else res.status(status).json(answer.body);
  }

  ctx.live.publish({
    type: 'inbox.message',
    organization_uuid: inbox.organization_uuid,
    data: {
      uuid: stored.uuid,
      inbox_uuid: inbox.uuid,
      received_on: stored.receivedOn,
      method: raw.method,
      decrypted: verdict?.verdicts.decrypted ?? false,
      signature_status: verdict?.verdicts.signatureStatus ?? 'unknown',
      event_type: verdict?.eventType ?? null,
      event_id: verdict?.eventId ?? null,
      duplicate_of: verdict?.duplicateOf ?? null,
      answer: { kind, status, after_ms: afterMs, rule: answer.rule },
    } satisfies Pick<Message, MessageSummaryField>,
  });
  if (forwarded?.relay) publishRelay(ctx, inbox, stored.uuid, forwarded.relay);
  else if (inbox.forward_to && inbox.forward_answers !== 1 && !runtime.stopped) queueForward(ctx, inbox, stored.uuid, inbox.forward_to);
}

/** Whether the app answers this request (forward_answers): a delivery, whole, that no rule answers. */
function forwardsNow(inbox: InboxRow, plan: PlannedAnswer): boolean {
  return inbox.forward_answers === 1 && inbox.forward_to !== null && plan.rule === null && (plan.kind === 'ok' || plan.kind === 'rejected');
}

/**
 * forward_answers: the message goes to the app while the sender waits; the app's status and body
 * are the answer, and no answer from the app is none from the inbox (the connection is closed).
 */
async function forwardWhileWaiting(
  ctx: AppContext,
  inbox: InboxRow,
  messageUuid: string,
  url: string,
  res: Response,
): Promise<{ relay: Relay | null; answer: PlannedAnswer; contentType: string; senderGone: boolean }> {
  let senderGone = false;
  const onClose = () => {
    senderGone = !res.writableEnded;
  };
  res.once('close', onClose);
  const relay = await forwardRelay(ctx, inbox, messageUuid, url)
    .catch((error: unknown) => {
      ctx.logger.error({ err: error, message_uuid: messageUuid }, 'inbox: forward failed');
      return null;
    })
    .finally(() => res.off('close', onClose));
  const answer: PlannedAnswer =
    relay?.status_code == null
      ? { kind: 'forward_failed', status: null, body: null, delayMs: 0, rule: null }
      : { kind: 'forwarded', status: relay.status_code, body: relay.response_excerpt ?? '', delayMs: 0, rule: null };
  const contentType = relay?.response_headers?.['content-type'] ?? 'text/plain';
  return { relay, answer, contentType, senderGone };
}

function queueForward(ctx: AppContext, inbox: InboxRow, messageUuid: string, url: string): void {
  const queue = forwardQueue(ctx);
  if (queue.submit(() => forward(ctx, inbox, messageUuid, url))) return;
  const reason =
    `Not forwarded: ${queue.capacity} forwards were already waiting for the ${queue.concurrency} in flight ` +
    '(serve --inbox-forward-queue, --inbox-forwards); replay it once your app answers again.';
  receiverRuntime(ctx).track(
    recordRefusedRelay(ctx, { uuid: messageUuid }, 'forward', url, reason)
      .then((relay) => publishRelay(ctx, inbox, messageUuid, relay))
      .catch((error: unknown) => ctx.logger.error({ err: error, message_uuid: messageUuid }, 'inbox: could not record a forward not sent')),
  );
}

function publishRelay(ctx: AppContext, inbox: InboxRow, messageUuid: string, relay: Relay): void {
  ctx.live.publish({
    type: 'inbox.relay',
    organization_uuid: inbox.organization_uuid,
    data: { inbox_uuid: inbox.uuid, message_uuid: messageUuid, ...relay },
  });
}

/**
 * Where to forward this message (checked and resolved now: the port or the name's address may have
 * changed since forward_to was saved), or why it is not forwarded.
 */
async function forwardTarget(
  ctx: AppContext,
  inbox: InboxRow,
  row: MessageRow,
  url: string,
): Promise<{ target: CheckedTarget } | { refused: string }> {
  const hops = relayHops(headerObject(parsePairs(row.raw_headers)));
  if (hops >= MAX_RELAY_HOPS) {
    return {
      refused: `Not forwarded: the request was itself relayed by an inbox (${RELAY_HOP_HEADER}: ${hops}); messages go at most ${MAX_RELAY_HOPS} hop, so inboxes can never relay in a loop.`,
    };
  }
  try {
    return { target: await checkRelayUrl(ctx, inbox.organization_uuid, url, 'forward_to') };
  } catch (error) {
    if (error instanceof ApiError) return { refused: `Not forwarded: ${error.message}` };
    throw error;
  }
}

/** Sends the stored message to `url` and records it, or records why it was not sent. */
async function forwardRelay(ctx: AppContext, inbox: InboxRow, messageUuid: string, url: string): Promise<Relay> {
  const row = await findMessage(ctx.db.kysely, inbox.uuid, messageUuid);
  if (!row) return recordRefusedRelay(ctx, { uuid: messageUuid }, 'forward', url, 'Not forwarded: the message was deleted meanwhile.');
  const decided = await forwardTarget(ctx, inbox, row, url);
  return 'target' in decided
    ? relayMessage(ctx, row, 'forward', url, decided.target)
    : recordRefusedRelay(ctx, row, 'forward', url, decided.refused);
}

async function forward(ctx: AppContext, inbox: InboxRow, messageUuid: string, url: string): Promise<void> {
  try {
    publishRelay(ctx, inbox, messageUuid, await forwardRelay(ctx, inbox, messageUuid, url));
  } catch (error) {
    ctx.logger.error({ err: error, message_uuid: messageUuid }, 'inbox: forward failed');
  }
}
