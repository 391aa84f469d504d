/**
 * Which delivery and attempt a request to an inbox is. A delivery of this server is known from its
 * own records of the attempts it is sending (matched by the exact body); a request from elsewhere
 * (another sandbox, a forward, a hand-made one) only by the sandbox's own X-Sandbox-* headers when
 * its webhook sends them. Nothing is read from headers the service does not send.
 */
import { sentAttempts } from '../webhooks/sent-attempts.ts';
import { SANDBOX_ATTEMPT_HEADER, SANDBOX_DELIVERY_ID_HEADER, SANDBOX_EVENT_HEADER } from '../wire-format/headers.ts';
import { headerObject, headerPairs } from './headers.ts';
import { parseAttempt } from './rules.ts';

export interface DeliveryOrigin {
  deliveryId: string | null;
  /** 1 for a first attempt; null when unknown. */
  attempt: number | null;
  eventType: string | null;
}

const MAX_ID_CHARS = 500;

/** `ctx` is the server's context, the key of the attempts it is sending (sent-attempts.ts). */
export function deliveryOrigin(ctx: object, raw: { rawHeaders: string[]; body: Buffer; truncated: boolean }): DeliveryOrigin {
  const own = raw.truncated ? undefined : sentAttempts(ctx).find(raw.body);
  if (own) return { deliveryId: own.deliveryId, attempt: own.attempt, eventType: own.eventType };
  const headers = headerObject(headerPairs(raw.rawHeaders));
  return {
    deliveryId: headers[SANDBOX_DELIVERY_ID_HEADER.toLowerCase()]?.slice(0, MAX_ID_CHARS) ?? null,
    attempt: parseAttempt(headers[SANDBOX_ATTEMPT_HEADER.toLowerCase()]),
    eventType: headers[SANDBOX_EVENT_HEADER.toLowerCase()]?.slice(0, MAX_ID_CHARS) ?? null,
  };
}
