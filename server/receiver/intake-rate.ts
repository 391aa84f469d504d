/**
 * The rate each inbox takes requests at, in bytes: a bucket of one minute's allowance per inbox that
 * refills continuously. The URL needs no credential, so a flood is refused (429) before its body
 * is read, and the rest of the API keeps its share of the server's one thread.
 */
import { inboxLimits } from './limits.ts';
import { perServer } from './per-server.ts';
import type { ReceiverDeps } from './deps.ts';

/** What a request costs at least, so a flood of empty requests is limited too. */
export const MIN_REQUEST_COST = 1024;
/** Past this many buckets, the full ones (idle inboxes, deleted ones) are forgotten. */
const MAX_BUCKETS = 10_000;

interface Bucket {
  bytes: number;
  at: number;
}

export class IntakeRate {
  private readonly buckets = new Map<string, Bucket>();

  private readonly bytesPerMinute: number;

  constructor(bytesPerMinute: number) {
    this.bytesPerMinute = bytesPerMinute;
  }

  private bucket(inboxUuid: string, now: number): Bucket {
    let bucket = this.buckets.get(inboxUuid);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.forgetFull(now);
      bucket = { bytes: this.bytesPerMinute, at: now };
      this.buckets.set(inboxUuid, bucket);
    }
    bucket.bytes = Math.min(this.bytesPerMinute, bucket.bytes + ((now - bucket.at) * this.bytesPerMinute) / 60_000);
    bucket.at = now;
    return bucket;
  }

  private forgetFull(now: number): void {
    for (const [uuid, bucket] of this.buckets) {
      if (bucket.bytes + ((now - bucket.at) * this.bytesPerMinute) / 60_000 >= this.bytesPerMinute) this.buckets.delete(uuid);
    }
  }

  /** Takes `bytes` from the inbox's allowance; when it has not that much, the seconds until it will (nothing taken). */
  take(inboxUuid: string, bytes: number, now = performance.now()): { retryAfterSeconds: number } | null {
    const cost = Math.min(Math.max(bytes, MIN_REQUEST_COST), this.bytesPerMinute);
    const bucket = this.bucket(inboxUuid, now);
    if (bucket.bytes >= cost) {
      bucket.bytes -= cost;
      return null;
    }
    return { retryAfterSeconds: Math.max(1, Math.ceil(((cost - bucket.bytes) * 60) / this.bytesPerMinute)) };
  }

  /** Takes what a body cost beyond what was taken for it up front (a body sent without Content-Length); may go below zero. */
  charge(inboxUuid: string, bytes: number, now = performance.now()): void {
    if (bytes > 0) this.bucket(inboxUuid, now).bytes -= bytes;
  }
}

export const intakeRate = perServer((ctx: Pick<ReceiverDeps, 'config'>) => new IntakeRate(inboxLimits(ctx.config).bytesPerMinute));
