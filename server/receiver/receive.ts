/**
 * What an inbox does with one request, without req/res: store it raw, then judge it (decryption,
 * signature, duplicate), then decide the answer (docs/webhooks.md "Wire format", or the inbox's fault injection).
 */
import { randomUUID } from 'node:crypto';
import type { ReceiverStore } from './deps.ts';
import { judgeDelivery, type DeliveryVerdicts } from '../tools/verdicts.ts';
import { SIGNATURE_HEADER } from '../wire-format/headers.ts';
import { deliveryOrigin, type DeliveryOrigin } from './delivery-origin.ts';
import type { SecretCandidate } from '../wire-format/open.ts';
import { nowIso } from '../time.ts';
import { headerObject, headerPairs } from './headers.ts';
import { inboxRules } from './inboxes.ts';
import { countsMessages, pickRule } from './rules.ts';
import type { answerKinds } from './schemas.ts';
import { describeBytes } from './limits.ts';
import { knownSecrets } from './secrets.ts';
import type { Updateable } from 'kysely';
import type { InboxMessageTable } from '../db/schema.ts';
import { countRuleMessage, findFirstDuplicate, insertMessage, updateMessage, type InboxRow } from './store.ts';

export interface RawDelivery {
  method: string;
  /** Path and query string as requested. */
  path: string;
  /** Node's flat rawHeaders list. */
  rawHeaders: string[];
  body: Buffer;
  /** The body was longer than the cap; `body` holds its start. */
  truncated: boolean;
  /** The sender went away before the body ended. */
  aborted: boolean;
  /** Content-Length announced more than the cap, so the body was not read at all. */
  declaredSize: number | null;
  /** The inbox body limit in force. */
  maxBodyBytes: number;
  remoteAddress: string | null;
}

export interface StoredDelivery {
  uuid: string;
  seq: number;
  receivedOn: string;
  /** Its number among the requests received since the rules were set; null while no rule matches by it. */
  messageNumber: number | null;
  /** Which delivery and attempt it is, as far as known. */
  origin: DeliveryOrigin;
}

export type AnswerKind = (typeof answerKinds)[number];

export interface PlannedAnswer {
  kind: AnswerKind;
  /** null: drop the connection. */
  status: number | null;
  /** Sent as JSON; a string (a rule's text body) as text/plain. */
  body: unknown;
  delayMs: number;
  /** The rule that decided it, 1 for the first; null when none matched. */
  rule: number | null;
}

export interface Verdict {
  /** The message columns that hold it (see verdictColumns), not yet written. */
  columns: Updateable<InboxMessageTable>;
  verdicts: DeliveryVerdicts;
  eventId: string | null;
  eventType: string | null;
  duplicateOf: string | null;
  duplicateBy: 'delivery_id' | 'signature' | 'event_id' | null;
}

/** First thing, before any judging: the request as it came, so nothing is lost whatever follows. */
export async function storeRaw(ctx: ReceiverStore, inbox: InboxRow, raw: RawDelivery): Promise<StoredDelivery> {
  const uuid = randomUUID();
  const receivedOn = nowIso();
  const origin = deliveryOrigin(ctx, raw);
  const seq = await insertMessage(ctx.db.kysely, {
    uuid,
    inbox_uuid: inbox.uuid,
    organization_uuid: inbox.organization_uuid,
    received_on: receivedOn,
    method: raw.method,
    path: raw.path,
    raw_headers: JSON.stringify(headerPairs(raw.rawHeaders)),
    body: raw.body,
    body_truncated: raw.truncated ? 1 : 0,
    remote_address: raw.remoteAddress,
    analyzed: 0,
    decrypted: 0,
    signature_status: 'unknown',
    hints: '[]',
    delivery_id: origin.deliveryId,
    attempt: origin.attempt,
  });
  const messageNumber = countsMessages(inboxRules(inbox)) ? await countRuleMessage(ctx.db.kysely, inbox.uuid) : null;
  return { uuid, seq, receivedOn, messageNumber, origin };
}

function envelopeField(json: unknown, field: 'id' | 'type'): string | null {
  if (typeof json !== 'object' || json === null || !(field in json)) return null;
  const value = (json as Record<string, unknown>)[field];
  return typeof value === 'string' ? value.slice(0, 500) : null;
}

/**
 * The two verdicts on a stored request. `incomplete` explains a body cut off by the cap or by the
 * sender, which is never judged as a delivery.
 */
export function judgeRequest(
  body: Buffer,
  headers: Record<string, string>,
  secrets: SecretCandidate[],
  incomplete: string | null,
): DeliveryVerdicts {
  if (incomplete !== null) {
    return {
      decrypted: false,
      problem: 'BODY_INCOMPLETE',
      error: incomplete,
      signatureHex: null,
      plaintext: null,
      json: null,
      signatureStatus: 'unknown',
      verifiedWith: null,
      hints: [{ code: 'BODY_INCOMPLETE', field: 'payload', message: incomplete }],
    };
  }
  return judgeDelivery(body.toString('utf8'), headers[SIGNATURE_HEADER.toLowerCase()], secrets, { strict: true });
}

/** The message columns that hold the verdicts and what decryption recovered. */
export function verdictColumns(verdicts: DeliveryVerdicts) {
  return {
    analyzed: 1,
    decrypted: verdicts.decrypted ? 1 : 0,
    decryption_problem: verdicts.problem,
    decryption_error: verdicts.error,
    signature_status: verdicts.signatureStatus,
    verified_with: verdicts.verifiedWith,
    hints: JSON.stringify(verdicts.hints),
    signature: verdicts.signatureHex,
    event_id: envelopeField(verdicts.json, 'id'),
    event_type: envelopeField(verdicts.json, 'type'),
    plaintext: verdicts.decrypted ? verdicts.plaintext : null,
  };
}

function tooLargeText(raw: RawDelivery): string {
  const limit = describeBytes(raw.maxBodyBytes);
  return raw.declaredSize !== null
    ? `The body (Content-Length ${raw.declaredSize} bytes) is larger than the inbox limit of ${limit}; it was not read, only the request line and headers are kept.`
    : `The body is larger than the inbox limit of ${limit}; only its start was kept.`;
}

/** The two verdicts and the duplicate check, not yet written (writeVerdict, or with the answer in recordAnswer). */
export async function judge(ctx: ReceiverStore, inbox: InboxRow, stored: StoredDelivery, raw: RawDelivery): Promise<Verdict> {
  const headers = headerObject(headerPairs(raw.rawHeaders));
  const incomplete = raw.truncated
    ? tooLargeText(raw)
    : raw.aborted
      ? `The sender closed the connection after ${raw.body.length} bytes of the body.`
      : null;
  const verdicts = judgeRequest(raw.body, headers, await knownSecrets(ctx, inbox), incomplete);
  const columns = verdictColumns(verdicts);
  const duplicate = await findFirstDuplicate(ctx.db.kysely, inbox.uuid, stored.seq, {
    deliveryId: stored.origin.deliveryId,
    signature: columns.signature,
    eventId: columns.event_id,
  });
  return {
    columns: { ...columns, duplicate_of: duplicate?.uuid ?? null, duplicate_by: duplicate?.by ?? null },
    verdicts,
    eventId: columns.event_id,
    eventType: columns.event_type,
    duplicateOf: duplicate?.uuid ?? null,
    duplicateBy: duplicate?.by ?? null,
  };
}

/**
 * How to answer: the first of the inbox's rules that matches (a drop, a chosen status and body, a
 * delay), else 413 for an oversized body, 400 when the delivery cannot be decrypted or its
 * signature header is malformed, and 200 otherwise. A verdict of null means judging failed; the raw
 * request is stored all the same.
 */
export function planAnswer(inbox: InboxRow, stored: StoredDelivery, raw: RawDelivery, verdict: Verdict | null): PlannedAnswer {
  const picked = pickRule(inboxRules(inbox), {
    eventType: stored.origin.eventType ?? verdict?.eventType ?? null,
    attempt: stored.origin.attempt,
    messageNumber: stored.messageNumber,
  });
  const respond = picked?.rule.respond;
  const delayMs = respond?.delay_ms ?? 0;
  const rule = picked ? picked.index + 1 : null;
  if (respond?.drop) return { kind: 'dropped', status: null, body: null, delayMs, rule };
  if (picked && respond?.status !== undefined) {
    return {
      kind: 'fault_status',
      status: respond.status,
      body: respond.body ?? {
        fault_injection: true,
        status: respond.status,
        message_uuid: stored.uuid,
        message: `Rule ${picked.index + 1} of this inbox answers ${respond.status}; change its rules with PATCH /api/inboxes/uuid/${inbox.uuid}.`,
      },
      delayMs,
      rule,
    };
  }
  if (raw.truncated) {
    return {
      kind: 'too_large',
      status: 413,
      body: {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: `${tooLargeText(raw)} Stored as message ${stored.uuid}.`,
          details: [{ path: 'body', message: `at most ${raw.maxBodyBytes} bytes (serve --inbox-max-body-kb)` }],
        },
      },
      delayMs,
      rule,
    };
  }
  const verdicts = verdict?.verdicts;
  if (verdicts && !verdicts.decrypted) {
    return {
      kind: 'rejected',
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_ERROR',
          message: `Delivery rejected: ${verdicts.error ?? 'it cannot be decrypted.'} Stored as message ${stored.uuid}.`,
          details: verdicts.hints.map((h) => ({
            path: h.field === 'signature' ? 'headers.x-service-signature' : 'body.payload',
            message: `${h.code}: ${h.message}`,
          })),
        },
      },
      delayMs,
      rule,
    };
  }
  return {
    kind: 'ok',
    status: 200,
    body: {
      received: true,
      message_uuid: stored.uuid,
      decrypted: verdicts?.decrypted ?? false,
      signature_status: verdicts?.signatureStatus ?? 'unknown',
      duplicate_of: verdict?.duplicateOf ?? null,
    },
    delayMs,
    rule,
  };
}

export async function writeVerdict(ctx: ReceiverStore, uuid: string, verdict: Verdict): Promise<void> {
  await updateMessage(ctx.db.kysely, uuid, verdict.columns);
}

/**
 * Records the answer, with the verdict when it is not written yet: each update rewrites the whole
 * row, body included, so an answer given at once costs one write instead of two.
 */
export async function recordAnswer(
  ctx: ReceiverStore,
  uuid: string,
  kind: AnswerKind,
  status: number | null,
  afterMs: number,
  unwrittenVerdict: Verdict | null = null,
  rule: number | null = null,
): Promise<void> {
  await updateMessage(ctx.db.kysely, uuid, {
    ...unwrittenVerdict?.columns,
    answer: kind,
    answered_status: status,
    answered_after_ms: afterMs,
    answered_by_rule: rule,
  });
}
