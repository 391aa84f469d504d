import { ApiError } from '../http/errors.ts';

/** Wrong secrets for one key id from one client address per window (serve --auth-max-failures). */
export const FAILED_AUTH_LIMIT = 10;
/** Wrong credentials of any key id from one client address per window (serve --auth-max-failures-per-address). */
export const FAILED_AUTH_ADDRESS_LIMIT = 100;
export const FAILED_AUTH_WINDOW_MS = 60_000;
/** Counters kept at most; past it expired ones go, then the oldest. */
const MAX_COUNTERS = 10_000;

export interface FailedAuthLimits {
  /** Per (client address, key id). */
  perKey: number;
  /** Per client address, whatever key ids it tries. */
  perAddress: number;
  windowMs: number;
}

interface Counter {
  count: number;
  windowEnds: number;
}

/**
 * Slows down wrong credentials, never the right ones: a request with the right secret always
 * passes, even from an address that is guessing at the same moment (secrets are 256 random bits,
 * so guessing cannot succeed, and locking out the key would let anyone who knows a key id lock
 * its owner out). Wrong attempts are counted per (client address, key id) and per client address;
 * past either limit within the window they get 429 with Retry-After instead of 401.
 */
export class FailedAuthThrottle {
  private readonly counters = new Map<string, Counter>();
  readonly limits: FailedAuthLimits;

  constructor(limits: Partial<FailedAuthLimits> = {}) {
    this.limits = {
      perKey: limits.perKey ?? FAILED_AUTH_LIMIT,
      perAddress: limits.perAddress ?? FAILED_AUTH_ADDRESS_LIMIT,
      windowMs: limits.windowMs ?? FAILED_AUTH_WINDOW_MS,
    };
  }

  /** Records one wrong attempt; throws 429 when the address (or the address with this key id) is over its limit. */
  fail(clientAddress: string, apiKey: string, now = Date.now()): void {
    const byKey = this.count(`key|${clientAddress}|${apiKey}`, now);
    const byAddress = this.count(`address|${clientAddress}`, now);
    const over = [
      byKey.count > this.limits.perKey ? { counter: byKey, what: 'with this API key' } : null,
      byAddress.count > this.limits.perAddress ? { counter: byAddress, what: 'from this address' } : null,
    ].filter((o) => o !== null);
    if (over.length === 0) return;
    const windowEnds = Math.max(...over.map((o) => o.counter.windowEnds));
    const seconds = Math.max(1, Math.ceil((windowEnds - now) / 1000));
    throw new ApiError(
      'TOO_MANY_REQUESTS',
      `Too many failed attempts ${over.map((o) => o.what).join(' and ')}. Try again in ${seconds} s; the right secret is always accepted.`,
      undefined,
      {
        'Retry-After': String(seconds),
      },
    );
  }

  private count(id: string, now: number): Counter {
    let counter = this.counters.get(id);
    if (!counter || counter.windowEnds <= now) {
      if (counter) this.counters.delete(id);
      if (this.counters.size >= MAX_COUNTERS) this.makeRoom(now);
      counter = { count: 0, windowEnds: now + this.limits.windowMs };
      this.counters.set(id, counter);
    }
    counter.count += 1;
    return counter;
  }

  private makeRoom(now: number): void {
    for (const [id, counter] of this.counters) if (counter.windowEnds <= now) this.counters.delete(id);
    // Still full (a flood of new addresses or key ids): forget the oldest windows.
    for (const id of this.counters.keys()) {
      if (this.counters.size < MAX_COUNTERS) break;
      this.counters.delete(id);
    }
  }
}
