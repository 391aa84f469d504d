import type { Dispatcher } from 'undici';
import { requestPinned, type CheckedTarget } from './pinned-fetch.ts';
import { deliveryHeaders } from '../wire-format/headers.ts';
import type { SentAttempts } from './sent-attempts.ts';
import { seal } from '../wire-format/seal.ts';
import { answerHeadersJson, describeNetworkError, readAnswerBody } from './outgoing-answer.ts';
import type { AttemptOutcome } from './dispatch-store.ts';

export const RESPONSE_EXCERPT_BYTES = 1024;
/** How much of an answer's body an attempt keeps (the rest is not read). */
export const RESPONSE_BODY_BYTES = 64 * 1024;

export interface OutgoingDelivery {
  url: string;
  secret: string;
  /** The plaintext envelope, exactly the bytes that are signed. */
  envelope: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  /** Also send the sandbox's X-Sandbox-* headers (the webhook's sandbox_diagnostics). */
  diagnostics: boolean;
}

export interface SendOptions {
  /** The delivery URL as checked (checkDeliveryTarget): the attempt connects to its checked addresses only. */
  target: CheckedTarget;
  timeoutMs: number;
  /** Time to establish the TCP connection. */
  connectTimeoutMs?: number;
  /** Aborts the attempt when the app stops. */
  stopSignal?: AbortSignal;
  /** Where the attempt is recorded while it is sent, so this server's own inboxes know it. */
  sentAttempts?: SentAttempts;
}

export interface SendResult extends AttemptOutcome {
  /** A 2xx answer. */
  ok: boolean;
  /** Cut short because the app is stopping (not the receiver's fault). */
  interrupted: boolean;
}

/**
 * The signal of one attempt: aborted when the timeout passes or the app stops, whichever comes
 * first (what AbortSignal.any([AbortSignal.timeout(ms), stop]) gives, for a tenth of its CPU);
 * `done` clears the timer and the stop listener.
 */
function attemptSignal(timeoutMs: number, stopSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const onStop = () => controller.abort(stopSignal?.reason);
  if (stopSignal?.aborted) onStop();
  else stopSignal?.addEventListener('abort', onStop, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      stopSignal?.removeEventListener('abort', onStop);
    },
  };
}

/** One POST: freshly encrypted (new IV), redirects not followed, bounded by the timeout. Never throws. */
export async function sendDelivery(delivery: OutgoingDelivery, options: SendOptions): Promise<SendResult> {
  const sealed = seal(delivery.envelope, delivery.secret);
  const attempt = attemptSignal(options.timeoutMs, options.stopSignal);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let statusCode: number | null = null;
  const headers = deliveryHeaders(sealed.signatureHeader, delivery.diagnostics ? delivery : null);
  const sent = { request_headers: JSON.stringify(headers), request_body: sealed.body };
  const forget = options.sentAttempts?.add(sealed.body, delivery);
  try {
    const response = await requestPinned(options.target, {
      method: 'POST',
      headers,
      body: sealed.body,
      signal: attempt.signal,
      connectTimeoutMs: options.connectTimeoutMs,
    });
    statusCode = response.statusCode;
    // The status decides; a body that breaks off or never ends only loses what it would have shown.
    const answer = await readAnswerBody(response.body, RESPONSE_BODY_BYTES).catch(() => ({ text: null, truncated: false }));
    const excerpt = answer.text === null ? null : Buffer.from(answer.text, 'utf8').subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return {
      ok,
      interrupted: false,
      status_code: response.statusCode,
      duration_ms: elapsed(),
      error: ok ? null : describeStatus(response),
      response_excerpt: excerpt,
      response_headers: answerHeadersJson(response.headers),
      response_body: answer.text,
      response_body_truncated: answer.truncated,
      ...sent,
    };
  } catch (error) {
    const interrupted = options.stopSignal?.aborted === true && !attempt.timedOut();
    const message = interrupted
      ? 'Interrupted: the app was stopping; the delivery is sent again after restart with the same delivery id.'
      : attempt.timedOut()
        ? `No complete answer within ${options.timeoutMs / 1000} s (timeout).`
        : isConnectTimeout(error)
          ? `No connection within ${(options.connectTimeoutMs ?? 0) / 1000} s (connect timeout): the host did not complete the TCP handshake.`
          : describeNetworkError(error);
    return { ok: false, interrupted, status_code: statusCode, duration_ms: elapsed(), error: message, ...noAnswer, ...sent };
  } finally {
    forget?.();
    attempt.done();
  }
}

const noAnswer = { response_excerpt: null, response_headers: null, response_body: null, response_body_truncated: false } as const;

function isConnectTimeout(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return [error, cause].some((e) => typeof e === 'object' && e !== null && 'code' in e && e.code === 'UND_ERR_CONNECT_TIMEOUT');
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
