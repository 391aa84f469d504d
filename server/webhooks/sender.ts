import type { Dispatcher } from 'undici';
import { APP_VERSION } from '../version.ts';
import { requestPinned, type CheckedTarget } from './pinned-fetch.ts';
import { seal, SIGNATURE_HEADER } from './crypto.ts';
import type { AttemptOutcome } from './dispatch-store.ts';

export const RESPONSE_EXCERPT_BYTES = 1024;

export interface OutgoingDelivery {
  url: string;
  secret: string;
  /** The plaintext envelope, exactly the bytes that are signed. */
  envelope: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
}

export interface SendOptions {
  /** The delivery URL as checked (checkDeliveryTarget): the attempt connects to its checked addresses only. */
  target: CheckedTarget;
  timeoutMs: number;
  /** Aborts the attempt when the app stops. */
  stopSignal?: AbortSignal;
}

export interface SendResult extends AttemptOutcome {
  /** A 2xx answer. */
  ok: boolean;
  /** Cut short because the app is stopping (not the receiver's fault). */
  interrupted: boolean;
}

/** The headers of one attempt (DESIGN.md); no Authorization, the signature authenticates. */
export function deliveryHeaders(delivery: OutgoingDelivery, signatureHeader: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [SIGNATURE_HEADER]: signatureHeader,
    'X-Service-Event': delivery.eventType,
    'X-Service-Delivery-Id': delivery.deliveryId,
    'X-Service-Attempt': String(delivery.attempt),
    'User-Agent': `QR-Sandbox-Webhooks/${APP_VERSION}`,
  };
}

/** One POST: freshly encrypted (new IV), redirects not followed, bounded by the timeout. Never throws. */
export async function sendDelivery(delivery: OutgoingDelivery, options: SendOptions): Promise<SendResult> {
  const sealed = seal(delivery.envelope, delivery.secret);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.stopSignal ? AbortSignal.any([timeout, options.stopSignal]) : timeout;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let statusCode: number | null = null;
  const headers = deliveryHeaders(delivery, sealed.signatureHeader);
  const sent = { request_headers: JSON.stringify(headers), request_body: sealed.body };
  try {
    const response = await requestPinned(options.target, { method: 'POST', headers, body: sealed.body, signal });
    statusCode = response.statusCode;
    // The status decides; a body that breaks off or never ends only loses the excerpt.
    const excerpt = await readExcerpt(response.body).catch(() => null);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return {
      ok,
      interrupted: false,
      status_code: response.statusCode,
      duration_ms: elapsed(),
      error: ok ? null : describeStatus(response),
      response_excerpt: excerpt,
      ...sent,
    };
  } catch (error) {
    const interrupted = options.stopSignal?.aborted === true && !timeout.aborted;
    const message = interrupted
      ? 'Interrupted: the app was stopping; the delivery is sent again after restart with the same delivery id.'
      : timeout.aborted
        ? `No complete answer within ${options.timeoutMs / 1000} s (timeout).`
        : describeNetworkError(error);
    return { ok: false, interrupted, status_code: statusCode, duration_ms: elapsed(), error: message, response_excerpt: null, ...sent };
  }
}

function describeStatus(response: Dispatcher.ResponseData): string {
  const status = response.statusCode;
  if (status >= 300 && status < 400) {
    const header = response.headers.location;
    const location = Array.isArray(header) ? header[0] : header;
    return `Redirect ${status}${location ? ` to ${location}` : ''} not followed: register the final URL.`;
  }
  return `The receiver answered ${status}${response.statusText ? ` ${response.statusText}` : ''}; only 2xx counts as delivered.`;
}

/** The first bytes of the answer, as text; the rest is not read (the connection is then closed, not reused). */
async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } finally {
    if (!body.destroyed && size >= RESPONSE_EXCERPT_BYTES) body.destroy();
  }
  if (size === 0) return null;
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

const networkErrors: Record<string, string> = {
  ECONNREFUSED: 'Connection refused: nothing listens at that address and port.',
  ECONNRESET: 'The receiver closed the connection before answering.',
  ENOTFOUND: 'The host name does not resolve (DNS).',
  EAI_AGAIN: 'The host name could not be resolved right now (DNS).',
  EHOSTUNREACH: 'The host is unreachable.',
  ENETUNREACH: 'The network is unreachable.',
  UND_ERR_SOCKET: 'The connection failed while sending or reading.',
  CERT_HAS_EXPIRED: "The receiver's TLS certificate has expired.",
  DEPTH_ZERO_SELF_SIGNED_CERT: 'The receiver uses a self-signed TLS certificate.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "The receiver's TLS certificate cannot be verified.",
};

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const detail = cause instanceof Error ? cause.message : String(cause);
  const known = code ? networkErrors[code] : undefined;
  return known ? `${known} (${code}: ${detail})` : `Request failed: ${detail}`;
}
