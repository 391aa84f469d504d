/**
 * Edit, re-seal, send: a message's decrypted JSON (as edited) sealed again with a webhook or inbox
 * secret, exactly as the service seals a delivery, or as one of the broken variants, and sent to
 * this inbox or to any URL the webhook rules allow; answers with what the target said.
 */
import { randomUUID } from 'node:crypto';
import type { ReceiverDeps } from './deps.ts';
import { ApiError } from '../http/errors.ts';
import { judgeDelivery, type DeliveryVerdicts } from '../tools/verdicts.ts';
import { findSettings } from '../settings/store.ts';
import { attemptTimeoutMs, connectTimeoutMs } from '../webhooks/config.ts';
import { describeNetworkError, readExcerpt } from '../webhooks/outgoing-answer.ts';
import { requestPinned, type CheckedTarget } from '../webhooks/pinned-fetch.ts';
import { deliveryHeaders, SIGNATURE_HEADER } from '../wire-format/headers.ts';
import type { SecretCandidate } from '../wire-format/open.ts';
import { seal } from '../wire-format/seal.ts';
import { sentAttempts } from '../webhooks/sent-attempts.ts';
import { type BuiltDelivery, type DoctorVerdict, findVariant, variants, verdictLabel } from './broken-variants.ts';
import { checkRelayUrl, inboxUrl } from './inboxes.ts';
import { jsonProblem } from '../../common/json-problem.ts';
import { findMessageRow } from './messages.ts';
import type { ResendBody, ResendOptions, ResendResult } from './resend-schemas.ts';
import { receiverRuntime } from './runtime.ts';
import { knownSecrets } from './secrets.ts';
import { reachesOwnInbox } from './self-target.ts';
import { requireInbox } from './inboxes.ts';
import type { MessageRow } from './store.ts';

const EXCERPT_BYTES = 2048;
/** A variant built with a fresh IV whose bytes happen to say something else (a padding that is valid by chance) is drawn again. */
const DRAWS = 8;

type ChosenSecret = SecretCandidate & { source: 'webhook' | 'inbox' | 'given' };

const sourceOf = (label: string): 'webhook' | 'inbox' => (label.startsWith('webhook ') ? 'webhook' : 'inbox');

function invalid(path: string, message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, [{ path, message }]);
}

export async function resendOptions(ctx: ReceiverDeps, organizationUuid: string, inboxUuid: string, uuid: string): Promise<ResendOptions> {
  const inbox = await requireInbox(ctx, organizationUuid, inboxUuid);
  const row = await findMessageRow(ctx, organizationUuid, inboxUuid, uuid);
  const secrets = await knownSecrets(ctx, inbox);
  return {
    target_url: inboxUrl(ctx.config, inbox.uuid),
    secrets: secrets.map((s) => ({ label: s.label, source: sourceOf(s.label), verified_message: s.label === row.verified_with })),
    default_secret_label: defaultSecret(secrets, row)?.label ?? null,
    plaintext: row.plaintext,
    variants: variants.map((v) => ({
      id: v.id,
      title: v.title,
      description: v.description,
      verdict: { ...v.verdict, label: verdictLabel(v.verdict) },
    })),
  };
}

function defaultSecret(secrets: SecretCandidate[], row: MessageRow): SecretCandidate | undefined {
  return secrets.find((s) => s.label === row.verified_with) ?? secrets[0];
}

function chooseSecret(secrets: SecretCandidate[], row: MessageRow, body: ResendBody): ChosenSecret {
  if (body.secret !== undefined) return { label: 'the secret you gave', secret: body.secret, source: 'given' };
  if (body.secret_label !== undefined) {
    const named = secrets.find((s) => s.label === body.secret_label);
    if (!named) {
      const known = secrets.length > 0 ? `Known: ${secrets.map((s) => s.label).join(', ')}.` : 'This inbox knows no secret.';
      throw invalid(
        'body.secret_label',
        `No known secret is labelled "${body.secret_label}". ${known} Or give the secret itself in "secret".`,
      );
    }
    return { ...named, source: sourceOf(named.label) };
  }
  const fallback = defaultSecret(secrets, row);
  if (!fallback)
    throw invalid(
      'body.secret',
      'No secret is known for this inbox: give the webhook secret in "secret", add it to the inbox, or register a webhook at this inbox.',
    );
  return { ...fallback, source: sourceOf(fallback.label) };
}

/** The plaintext to seal: the edit as compact JSON (as the service sends it), else the message's own plaintext bytes. */
function plaintextOf(row: MessageRow, body: ResendBody): { bytes: Buffer; type: string | null } {
  if (body.plaintext === undefined) {
    if (row.plaintext === null)
      throw invalid(
        'body.plaintext',
        `Message ${row.uuid} was not decrypted, so there is nothing to re-seal: give the JSON in "plaintext".`,
      );
    return { bytes: Buffer.from(row.plaintext, 'utf8'), type: row.event_type };
  }
  const problem = jsonProblem(body.plaintext);
  if (problem) throw invalid('body.plaintext', `${problem.message} Fix it and send again.`);
  const value = JSON.parse(body.plaintext) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('body.plaintext', 'The plaintext must be a JSON object, an event envelope {"id", "type", "created_at", "data"}.');
  const type = (value as Record<string, unknown>).type;
  return { bytes: Buffer.from(JSON.stringify(value), 'utf8'), type: typeof type === 'string' ? type : null };
}

export function doctorVerdict(verdicts: DeliveryVerdicts): DoctorVerdict {
  return {
    decrypted: verdicts.decrypted,
    problem: verdicts.problem,
    signature_status: verdicts.signatureStatus,
    hint: verdicts.hints[0]?.code ?? null,
  };
}

const sameVerdict = (a: DoctorVerdict, b: DoctorVerdict) =>
  a.decrypted === b.decrypted && a.problem === b.problem && a.signature_status === b.signature_status && a.hint === b.hint;

/** The delivery to send and the doctor's verdicts on it, judged with the secret it was meant to carry. */
function build(plaintext: Buffer, secret: ChosenSecret, variantId: ResendBody['variant']) {
  const judge = (built: BuiltDelivery) =>
    judgeDelivery(built.body, built.signatureHeader ?? undefined, [{ label: secret.label, secret: secret.secret }], { strict: true });
  if (variantId === undefined) {
    const { body, signatureHeader } = seal(plaintext, secret.secret);
    const built = { plaintext, body, signatureHeader };
    return { built, verdicts: judge(built) };
  }
  const variant = findVariant(variantId);
  let last: { built: BuiltDelivery; verdicts: DeliveryVerdicts } | null = null;
  for (let draw = 0; draw < DRAWS; draw += 1) {
    const built = variant.build(plaintext, secret.secret);
    if (typeof built === 'string') throw invalid('body.variant', `The ${variant.id} variant cannot be made from this JSON: ${built}.`);
    last = { built, verdicts: judge(built) };
    if (sameVerdict(doctorVerdict(last.verdicts), variant.verdict)) return last;
  }
  const says = last ? verdictLabel(doctorVerdict(last.verdicts)) : 'nothing';
  throw invalid(
    'body.variant',
    `The ${variant.id} variant cannot be made from this JSON: the doctor says "${says}" instead of "${verdictLabel(variant.verdict)}". Edit the JSON or choose another variant.`,
  );
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function isConnectTimeout(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return [error, cause].some((e) => typeof e === 'object' && e !== null && 'code' in e && e.code === 'UND_ERR_CONNECT_TIMEOUT');
}

async function send(ctx: ReceiverDeps, organizationUuid: string, target: CheckedTarget, headers: Record<string, string>, body: string) {
  // The organization's time limit, as its webhooks' deliveries have.
  const timeoutMs = attemptTimeoutMs(ctx.config, (await findSettings(ctx.db.kysely, organizationUuid))?.webhook_timeout_s);
  const connectMs = connectTimeoutMs(ctx.config);
  const timeout = AbortSignal.timeout(timeoutMs);
  const stopping = receiverRuntime(ctx).signal;
  const started = performance.now();
  try {
    const response = await requestPinned(target, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([timeout, stopping]),
      connectTimeoutMs: connectMs,
    });
    const excerpt = await readExcerpt(response.body, EXCERPT_BYTES).catch(() => null);
    return {
      status_code: response.statusCode,
      headers: flatHeaders(response.headers),
      body_excerpt: excerpt,
      duration_ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    const reason = stopping.aborted
      ? 'the server is shutting down'
      : timeout.aborted
        ? `no complete answer within ${timeoutMs / 1000} s (timeout)`
        : isConnectTimeout(error)
          ? `no connection within ${connectMs / 1000} s (connect timeout)`
          : describeNetworkError(error);
    throw new ApiError(
      'BAD_GATEWAY',
      `No answer from ${target.url.href}: ${reason}. Check that your app is running and listens at that URL, then send again.`,
    );
  }
}

export async function resendMessage(
  ctx: ReceiverDeps,
  organizationUuid: string,
  inboxUuid: string,
  uuid: string,
  body: ResendBody,
): Promise<ResendResult> {
  const inbox = await requireInbox(ctx, organizationUuid, inboxUuid);
  const row = await findMessageRow(ctx, organizationUuid, inboxUuid, uuid);
  const secret = chooseSecret(await knownSecrets(ctx, inbox), row, body);
  const plaintext = plaintextOf(row, body);
  const eventType = plaintext.type ?? row.event_type;
  if (eventType === null)
    throw invalid('body.plaintext', 'The JSON has no string "type" (the event name); add one, e.g. "service_confirmation.check_in".');
  const url = body.target_url ?? inboxUrl(ctx.config, inbox.uuid);
  const target = await checkRelayUrl(ctx, organizationUuid, url, 'body.target_url', 'replay');

  const { built, verdicts } = build(plaintext.bytes, secret, body.variant);
  const headers = deliveryHeaders(built.signatureHeader ?? '');
  if (built.signatureHeader === null) delete headers[SIGNATURE_HEADER];
  // A new delivery, first attempt: this server's inbox knows it from the record, as it knows the webhooks' deliveries.
  const forget = sentAttempts(ctx).add(built.body, { deliveryId: randomUUID(), attempt: 1, eventType });
  const answer = await send(ctx, organizationUuid, target, headers, built.body).finally(forget);
  const ownInbox = reachesOwnInbox(
    ctx.config,
    target.url,
    target.addresses.map((a) => a.address),
  );
  return {
    target_url: target.url.href,
    variant: body.variant ?? null,
    secret: { source: secret.source, label: secret.label },
    verdict: { ...doctorVerdict(verdicts), label: verdictLabel(doctorVerdict(verdicts)) },
    hints: verdicts.hints,
    sent: { headers, body: built.body, plaintext: built.plaintext.toString('utf8') },
    answer,
    inbox_message_uuid: ownInbox ? (answer.headers['x-inbox-message-uuid'] ?? null) : null,
  };
}
