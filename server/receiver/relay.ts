/** Forward and replay: send a stored request, byte for byte with its headers, to another URL, and log the answer. */
import { randomUUID } from 'node:crypto';
import type { ReceiverStore } from './deps.ts';
import { type Dispatcher, Headers } from 'undici';
import { describeNetworkError, readExcerpt } from '../webhooks/outgoing-answer.ts';
import { requestPinned, type CheckedTarget } from '../webhooks/pinned-fetch.ts';
import { nowIso } from '../time.ts';
import { HOP_BY_HOP, RELAY_HOP_HEADER, headerObject, parsePairs, relayHops } from './headers.ts';
import { receiverRuntime } from './runtime.ts';
import type { Relay } from './schemas.ts';
import { insertRelay, updateRelay, type MessageRow, type RelayRow } from './store.ts';

export const RELAY_TIMEOUT_MS = 15_000;
const EXCERPT_BYTES = 2048;

export function toRelay(row: RelayRow): Relay {
  const headers = row.response_headers === null ? null : Object.fromEntries(parsePairs(row.response_headers));
  return {
    uuid: row.uuid,
    kind: row.kind,
    url: row.url,
    requested_on: row.requested_on,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    response_headers: headers,
    response_excerpt: row.response_excerpt,
  };
}

/**
 * The stored headers that can go on (all but those of one connection or hop), as a flat list in
 * their order and case, plus the hop count: what the sender sent and nothing a client library adds.
 */
function relayHeaders(message: MessageRow): { headers: string[]; skipped: string[] } {
  const headers: string[] = [];
  const skipped: string[] = [];
  const pairs = parsePairs(message.raw_headers);
  for (const [name, value] of pairs) {
    if (HOP_BY_HOP.has(name.toLowerCase()) || name.toLowerCase() === RELAY_HOP_HEADER.toLowerCase()) continue;
    try {
      new Headers().append(name, value);
      headers.push(name, value);
    } catch {
      skipped.push(name);
    }
  }
  headers.push(RELAY_HOP_HEADER, String(relayHops(headerObject(pairs)) + 1));
  return { headers, skipped };
}

function headerPairsJson(headers: Record<string, string | string[] | undefined>): string {
  return JSON.stringify(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => [name, one]),
    ),
  );
}

function describeFailure(error: unknown, signal: AbortSignal, stopping: AbortSignal): string {
  if (stopping.aborted) return 'Not finished: the server shut down.';
  if (signal.aborted) return `No answer within ${RELAY_TIMEOUT_MS / 1000} s.`;
  return describeNetworkError(error);
}

/** A relay that was not attempted (no connection made), recorded so the message says why. */
export async function recordRefusedRelay(
  ctx: ReceiverStore,
  message: Pick<MessageRow, 'uuid'>,
  kind: 'forward' | 'replay',
  url: string,
  reason: string,
): Promise<Relay> {
  const row: RelayRow = {
    seq: 0,
    uuid: randomUUID(),
    message_uuid: message.uuid,
    kind,
    url,
    requested_on: nowIso(),
    status_code: null,
    duration_ms: 0,
    error: reason,
    response_headers: null,
    response_excerpt: null,
  };
  const { seq: _seq, ...values } = row;
  await insertRelay(ctx.db.kysely, values);
  return toRelay(row);
}

/**
 * Sends the message to `url` (checked by checkRelayUrl as `target`, connecting to its checked
 * addresses only) and records the attempt; resolves with the record, never rejects for network failures.
 */
export async function relayMessage(
  ctx: ReceiverStore,
  message: MessageRow,
  kind: 'forward' | 'replay',
  url: string,
  target: CheckedTarget,
): Promise<Relay> {
  const runtime = receiverRuntime(ctx);
  const uuid = randomUUID();
  const requestedOn = nowIso();
  await insertRelay(ctx.db.kysely, { uuid, message_uuid: message.uuid, kind, url, requested_on: requestedOn });
  const { headers, skipped } = relayHeaders(message);
  const timeout = AbortSignal.timeout(RELAY_TIMEOUT_MS);
  const started = performance.now();
  let result: { status_code: number | null; error: string | null; response_headers: string | null; response_excerpt: string | null };
  try {
    const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
    const response = await requestPinned(target, {
      method: message.method as Dispatcher.HttpMethod,
      headers,
      body: hasBody ? new Uint8Array(message.body) : undefined,
      signal: AbortSignal.any([timeout, runtime.signal]),
    });
    const excerpt = (await readExcerpt(response.body, EXCERPT_BYTES)) ?? '';
    result = {
      status_code: response.statusCode,
      error: skipped.length > 0 ? `Headers that could not be relayed: ${skipped.join(', ')}.` : null,
      response_headers: headerPairsJson(response.headers),
      response_excerpt: excerpt,
    };
  } catch (error) {
    result = { status_code: null, error: describeFailure(error, timeout, runtime.signal), response_headers: null, response_excerpt: null };
  }
  const duration = Math.round(performance.now() - started);
  await updateRelay(ctx.db.kysely, uuid, { ...result, duration_ms: duration });
  return toRelay({ seq: 0, uuid, message_uuid: message.uuid, kind, url, requested_on: requestedOn, ...result, duration_ms: duration });
}
