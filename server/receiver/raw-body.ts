import type { Request } from 'express';

export interface RawBody {
  body: Buffer;
  /** Longer than the cap: `body` holds the first `cap` bytes and the rest was discarded. */
  truncated: boolean;
  /** The sender went away before the body ended. */
  aborted: boolean;
  /** Content-Length announced more than the cap: nothing of the body was read. */
  declaredSize: number | null;
}

/** Past the cap the rest is read and thrown away up to this much, so the sender gets its answer; beyond, the connection closes. */
const DRAIN_FACTOR = 32;

/**
 * The exact body bytes, at most `cap` of them. A Content-Length over the cap is answered without
 * reading the body at all. Never rejects: a broken request yields what arrived.
 */
export function readRawBody(req: Request, cap: number): Promise<RawBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared > cap)
    return Promise.resolve({ body: Buffer.alloc(0), truncated: true, aborted: false, declaredSize: declared });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let seen = 0;
    let truncated = false;
    let settled = false;
    const finish = (aborted: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ body: Buffer.concat(chunks), truncated, aborted, declaredSize: null });
    };
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap * DRAIN_FACTOR) finish(false);
      if (truncated) return;
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        truncated = true;
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => finish(false));
    req.on('error', () => finish(true));
    req.on('close', () => finish(!req.complete));
  });
}
