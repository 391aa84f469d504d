/**
 * The first bytes of an answer to an outgoing request (delivery, forward, replay), as text; the
 * rest is not read (leaving the loop early cancels the body, so the connection is closed, not
 * reused). Takes a fetch body or an undici request() body. Null when empty.
 */
export async function readExcerpt(body: AsyncIterable<Uint8Array> | null | undefined, maxBytes: number): Promise<string | null> {
  if (!body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= maxBytes) break;
  }
  if (size === 0) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, maxBytes));
}

/** An answer's body up to maxBytes, as text, and whether more came; one read serves the excerpt too. */
export async function readAnswerBody(
  body: AsyncIterable<Uint8Array> | null | undefined,
  maxBytes: number,
): Promise<{ text: string | null; truncated: boolean }> {
  const read = await readExcerpt(body, maxBytes + 1);
  if (read === null) return { text: null, truncated: false };
  const bytes = Buffer.from(read, 'utf8');
  if (bytes.byteLength <= maxBytes) return { text: read, truncated: false };
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, maxBytes)), truncated: true };
}

/** Answer headers as one JSON object (repeated headers joined with ", "). */
export function answerHeadersJson(headers: Record<string, string | string[] | undefined>): string {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return JSON.stringify(flat);
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

/** Why an outgoing request got no answer, in plain words with the system's code and message. */
export function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const detail = cause instanceof Error ? cause.message : String(cause);
  const known = code ? networkErrors[code] : undefined;
  return known ? `${known} (${code}: ${detail})` : `Request failed: ${detail}`;
}
