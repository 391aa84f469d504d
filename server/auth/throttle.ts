import { ApiError } from '../http/errors.ts';

export const FAILED_AUTH_LIMIT = 10;
export const FAILED_AUTH_WINDOW_MS = 60_000;

/**
 * Slows down guessing: after FAILED_AUTH_LIMIT wrong secrets for one API key from one address
 * within a minute, further attempts get 429 with Retry-After until the minute is over. Keyed by
 * address and key so that one noisy client does not lock out the others on the same machine.
 */
export class FailedAuthThrottle {
  private readonly failures = new Map<string, { count: number; windowEnds: number }>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(limit = FAILED_AUTH_LIMIT, windowMs = FAILED_AUTH_WINDOW_MS) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Throws 429 when this client has used up its attempts. */
  check(client: string, now = Date.now()): void {
    const entry = this.failures.get(client);
    if (!entry || entry.windowEnds <= now || entry.count < this.limit) return;
    const seconds = Math.ceil((entry.windowEnds - now) / 1000);
    throw new ApiError('TOO_MANY_REQUESTS', `Too many failed attempts with this API key. Try again in ${seconds} s.`, undefined, {
      'Retry-After': String(seconds),
    });
  }

  fail(client: string, now = Date.now()): void {
    const entry = this.failures.get(client);
    if (!entry || entry.windowEnds <= now) {
      if (this.failures.size > 10_000) this.sweep(now);
      this.failures.set(client, { count: 1, windowEnds: now + this.windowMs });
    } else entry.count += 1;
  }

  succeed(client: string): void {
    this.failures.delete(client);
  }

  private sweep(now: number): void {
    for (const [client, entry] of this.failures) if (entry.windowEnds <= now) this.failures.delete(client);
  }
}
