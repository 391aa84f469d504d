/**
 * A webhook receiver written from the service's documented rules alone, with node:crypto and no
 * code of the sandbox: POST, Content-Type application/json, a body {"payload"} of base64(IV +
 * AES-256-CBC ciphertext), X-Service-Signature sha256=<hex HMAC>, the AES key the first 32
 * characters of that hex as ASCII bytes, the HMAC-SHA256 over the plaintext keyed with the secret.
 */
import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

export interface ReceivedRequest {
  method: string;
  /** Node's flat rawHeaders list. */
  rawHeaders: string[];
  body: Buffer;
}

export interface ReferenceReading {
  /** Every header name, lowercased, in the order sent. */
  headerNames: string[];
  envelope: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  /** The HMAC matched the secret; null without one. */
  verified: boolean | null;
}

/** Headers any HTTP client sends; not part of the service's wire format. */
export const TRANSPORT_HEADERS = ['host', 'content-length', 'connection', 'user-agent'];

export function headerValue(request: ReceivedRequest, name: string): string | undefined {
  const at = request.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name.toLowerCase());
  return at === -1 ? undefined : request.rawHeaders[at + 1];
}

/** Reads a delivery as the reference says; throws when it is not one. */
export function readAsReference(request: ReceivedRequest, secret: string | null = null): ReferenceReading {
  if (request.method !== 'POST') throw new Error(`method ${request.method}, not POST`);
  if (headerValue(request, 'content-type') !== 'application/json') throw new Error('Content-Type is not application/json');
  const signature = /^sha256=([0-9a-f]{64})$/.exec(headerValue(request, 'x-service-signature') ?? '')?.[1];
  if (!signature) throw new Error('X-Service-Signature is missing or malformed');
  const body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
  if (Object.keys(body).join() !== 'payload' || typeof body.payload !== 'string') throw new Error('the body is not {"payload": string}');
  const bytes = Buffer.from(body.payload, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(signature.slice(0, 32), 'ascii'), bytes.subarray(0, 16));
  const plaintext = Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]);
  const verified =
    secret === null
      ? null
      : timingSafeEqual(Buffer.from(createHmac('sha256', secret).update(plaintext).digest('hex')), Buffer.from(signature));
  return {
    headerNames: request.rawHeaders.filter((_h, i) => i % 2 === 0).map((h) => h.toLowerCase()),
    envelope: JSON.parse(plaintext.toString('utf8')) as ReferenceReading['envelope'],
    verified,
  };
}
