import { ApiError } from '../http/errors.ts';
import { BoundedCounters } from './bounded-counters.ts';

/** Wrong secrets for one key id from one client address per window (serve --auth-max-failures). */
export const FAILED_AUTH_LIMIT = 10;
/** Wrong credentials of any key id from one client address per window (serve --auth-max-failures-per-address). */
export const FAILED_AUTH_ADDRESS_LIMIT = 100;
export const FAILED_AUTH_WINDOW_MS = 60_000;
/** Client addresses counted at once. */
const MAX_ADDRESS_COUNTERS = 10_000;
/** (client address, key id) pairs counted at once. */
const MAX_KEY_COUNTERS = 10_000;
/** Real key ids are 28 characters; a longer one is wrong whatever it says, and is counted by its start. */
const KEY_ID_COUNTED = 64;

export interface FailedAuthLimits {
  /** Per (client address, key id). */
  perKey: number;
  /** Per client address, whatever key ids it tries. */
  perAddress: number;
  windowMs: number;
  /** (address, key id) counters kept; past it the oldest go (the per-address counter still holds the address back). */
  maxKeyCounters: number;
  /** Address counters kept; a live one is never dropped for a new one. */
  maxAddressCounters: number;
  /** Milliseconds on a clock that never jumps (default performance.now): wall-clock changes neither end nor stretch a window. */
  clock: () => number;
}

/**
 * Slows down wrong credentials, never the right ones: a request with the right secret always
 * passes, even from an address that is guessing at the same moment (secrets are 256 random bits,
 * so guessing cannot succeed, and locking out the key would let anyone who knows a key id lock
 * its owner out). Wrong attempts are counted per (client address, key id) and per client address;
 * past either limit within the window they get 429 with Retry-After instead of 401.
 *
 * The two counts are kept apart, so the attack one counts cannot evict the other: a burst of
 * fresh key ids fills only the per-key counters (the oldest go), while the address's own counter
 * stays and keeps the whole burst at the per-address limit. When every address counter is live,
 * a new address is refused (429) rather than one of them forgotten: only wrong attempts are
 * refused, and the right secret still passes.
 */
export class FailedAuthThrottle {
  readonly limits: FailedAuthLimits;
  private readonly byKey: BoundedCounters;
  private readonly byAddress: BoundedCounters;

  constructor(limits: Partial<FailedAuthLimits> = {}) {
    this.limits = {
      perKey: limits.perKey ?? FAILED_AUTH_LIMIT,
      perAddress: limits.perAddress ?? FAILED_AUTH_ADDRESS_LIMIT,
      windowMs: limits.windowMs ?? FAILED_AUTH_WINDOW_MS,
      maxKeyCounters: limits.maxKeyCounters ?? MAX_KEY_COUNTERS,
      maxAddressCounters: limits.maxAddressCounters ?? MAX_ADDRESS_COUNTERS,
      clock: limits.clock ?? (() => performance.now()),
    };
    this.byKey = new BoundedCounters(this.limits.maxKeyCounters, 'evict-oldest');
    this.byAddress = new BoundedCounters(this.limits.maxAddressCounters, 'keep-live');
  }

  /** Records one wrong attempt; throws 429 when the address (or the address with this key id) is over its limit. */
  fail(clientAddress: string, apiKey: string): void {
    const now = this.limits.clock();
    const windowMs = this.limits.windowMs;
    const byAddress = this.byAddress.count(clientAddress, now, windowMs);
    const byKey = this.byKey.count(`${clientAddress}|${apiKey.slice(0, KEY_ID_COUNTED)}`, now, windowMs);
    const over: { windowEnds: number; what: string }[] = [];
    if (byKey && byKey.count > this.limits.perKey) over.push({ windowEnds: byKey.windowEnds, what: 'with this API key' });
    if (!byAddress) over.push({ windowEnds: this.byAddress.firstWindowEnd(now), what: 'from this address' });
    else if (byAddress.count > this.limits.perAddress) over.push({ windowEnds: byAddress.windowEnds, what: 'from this address' });
    if (over.length === 0) return;
    const windowEnds = Math.max(...over.map((o) => o.windowEnds));
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
}
