import type { Response as UndiciResponse } from 'undici';

/** The first bytes of an answer to an outgoing request (delivery, forward, replay), as text; the rest is not read. Null when empty. */
export async function readExcerpt(response: UndiciResponse, maxBytes: number): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (size >= maxBytes) await reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
  if (size === 0) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, maxBytes));
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
