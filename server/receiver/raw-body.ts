import type { Request } from 'express';

export interface RawBody {
  body: Buffer;
  /** Longer than the cap: `body` holds the first `cap` bytes and the rest is discarded. */
  truncated: boolean;
  /** The sender went away before the body ended. */
  aborted: boolean;
}

/** The exact body bytes, at most `cap` of them. Never rejects: a broken request yields what arrived. */
export function readRawBody(req: Request, cap: number): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let settled = false;
    const finish = (aborted: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ body: Buffer.concat(chunks), truncated, aborted });
    };
    req.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        truncated = true;
        finish(false);
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
