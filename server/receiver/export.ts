/**
 * Exports of an inbox's messages as JSON or HAR 1.2, oldest first, written in slices so a large
 * inbox never sits in memory whole. X-Service-Signature is masked unless asked for: with the
 * payload it decrypts the message.
 */
import type { ReceiverDeps } from './deps.ts';
import { APP_VERSION } from '../version.ts';
import { SIGNATURE_HEADER } from '../wire-format/headers.ts';
import { headerObject, parsePairs } from './headers.ts';
import { inboxUrl } from './inboxes.ts';
import { toMessage } from './messages.ts';
import type { ExportQuery, Inbox, Message } from './schemas.ts';
import { listMessageRows, relaysOf, type MessageRow } from './store.ts';

export const MASKED_SIGNATURE = 'sha256=[masked: export with include_signature=true to keep it]';
const SLICE = 100;

function maskPairs(pairs: Array<[string, string]>, keep: boolean): Array<[string, string]> {
  return keep
    ? pairs
    : pairs.map(([name, value]) => [name, name.toLowerCase() === SIGNATURE_HEADER.toLowerCase() ? MASKED_SIGNATURE : value]);
}

/** The message as exported: the signature header masked, and the error that quotes a malformed one too. */
function exportedMessage(row: MessageRow, message: Message, keepSignature: boolean): Message {
  if (keepSignature) return message;
  const quotesSignature = message.decryption_problem === 'MALFORMED_SIGNATURE';
  return {
    ...message,
    headers: headerObject(maskPairs(parsePairs(row.raw_headers), false)),
    decryption_error: quotesSignature
      ? 'The X-Service-Signature header is malformed (its value is masked in this export).'
      : message.decryption_error,
  };
}

function harEntry(ctx: ReceiverDeps, row: MessageRow, original: Message, keepSignature: boolean): Record<string, unknown> {
  const message = exportedMessage(row, original, keepSignature);
  const url = new URL(message.path, inboxUrl(ctx.config, message.inbox_uuid));
  const headers = maskPairs(parsePairs(row.raw_headers), keepSignature).map(([name, value]) => ({ name, value }));
  const mimeType = message.headers['content-type'] ?? 'application/octet-stream';
  const verdicts = [
    message.decrypted ? 'decrypted' : `not decrypted (${message.decryption_problem ?? 'unknown reason'})`,
    `signature ${message.signature_status}`,
    ...(message.duplicate_of ? [`duplicate of ${message.duplicate_of} (same ${message.duplicate_by})`] : []),
  ].join('; ');
  const status = message.answer.status ?? 0;
  return {
    startedDateTime: message.received_on,
    time: message.answer.after_ms ?? 0,
    request: {
      method: message.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      queryString: [...url.searchParams.entries()].map(([name, value]) => ({ name, value })),
      ...(message.body_size > 0 || message.method !== 'GET'
        ? {
            postData:
              message.body_base64 === null
                ? { mimeType, text: message.body }
                : { mimeType, text: message.body_base64, comment: 'Not UTF-8: text is the base64 of the exact bytes.' },
          }
        : {}),
      headersSize: -1,
      bodySize: message.body_size,
    },
    response: {
      status,
      statusText: message.answer.kind === 'dropped' ? 'connection dropped' : message.answer.kind === 'client_gone' ? 'sender hung up' : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'application/json' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      comment: `Answered by the inbox: ${message.answer.kind ?? 'not answered'}`,
    },
    cache: {},
    timings: { send: 0, wait: message.answer.after_ms ?? 0, receive: 0 },
    comment: verdicts,
    _qr_sandbox: {
      message_uuid: message.uuid,
      decrypted: message.decrypted,
      decryption_error: message.decryption_error,
      signature_status: message.signature_status,
      verified_with: message.verified_with,
      duplicate_of: message.duplicate_of,
      envelope: message.envelope,
      relays: message.relays,
    },
  };
}

async function* exportedRows(
  ctx: ReceiverDeps,
  inboxUuid: string,
  query: ExportQuery,
): AsyncGenerator<{ row: MessageRow; message: Message }> {
  for (let offset = 0; ; offset += SLICE) {
    const { rows } = await listMessageRows(ctx.db.kysely, inboxUuid, query, { limit: SLICE, offset, oldestFirst: true });
    const relays = await relaysOf(
      ctx.db.kysely,
      rows.map((r) => r.uuid),
    );
    for (const row of rows) yield { row, message: toMessage(row, relays.get(row.uuid) ?? []) };
    if (rows.length < SLICE) return;
  }
}

/** The export, piece by piece (stream it with stream.pipeline); the caller sets the headers. */
export async function* exportChunks(ctx: ReceiverDeps, inbox: Inbox, query: ExportQuery): AsyncGenerator<string> {
  const keep = query.include_signature === true;
  const exportedOn = new Date().toISOString();
  let first = true;
  const separator = () => {
    const s = first ? '\n' : ',\n';
    first = false;
    return s;
  };
  if (query.format === 'har') {
    const creator = { name: 'QR Sandbox', version: APP_VERSION, comment: `Inbox ${inbox.name} (${inbox.uuid})` };
    yield `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"comment":${JSON.stringify(`Exported ${exportedOn}; X-Service-Signature ${keep ? 'included' : 'masked'}.`)},"pages":[],"entries":[`;
    for await (const { row, message } of exportedRows(ctx, inbox.uuid, query))
      yield separator() + JSON.stringify(harEntry(ctx, row, message, keep));
    yield '\n]}}\n';
    return;
  }
  yield `{"exported_on":${JSON.stringify(exportedOn)},"signature_masked":${!keep},"inbox":${JSON.stringify(inbox)},"messages":[`;
  for await (const { row, message } of exportedRows(ctx, inbox.uuid, query))
    yield separator() + JSON.stringify(exportedMessage(row, message, keep));
  yield '\n]}\n';
}
