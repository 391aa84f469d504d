/** Where the dispatcher reads the time: the wall clock (due times stored in the outbox) and a monotonic one. Tests pass their own. */
export interface Clock {
  wallMs(): number;
  monoMs(): number;
}

export const systemClock: Clock = { wallMs: () => Date.now(), monoMs: () => performance.now() };

/** A difference between the wall clock and the dispatcher's time smaller than this is no jump (NTP slews the wall clock gently). */
export const CLOCK_JUMP_MS = 1000;

/**
 * The dispatcher's time, in epoch ms: the wall clock as it read when last set, advanced by the
 * monotonic clock since. Waits counted on it are neither stretched by a wall clock set back nor
 * ended at once by one set forward (nor by a suspend: the monotonic clock stops while the machine
 * sleeps, and so do the waits).
 */
export class DeliveryClock {
  private readonly clock: Clock;
  private wallAt: number;
  private monoAt: number;

  constructor(clock: Clock) {
    this.clock = clock;
    this.wallAt = clock.wallMs();
    this.monoAt = clock.monoMs();
  }

  now(): number {
    return this.wallAt + (this.clock.monoMs() - this.monoAt);
  }

  /** How far the wall clock has moved away from this time since it was set (0 below CLOCK_JUMP_MS). */
  jump(): number {
    const jump = this.clock.wallMs() - this.now();
    return Math.abs(jump) < CLOCK_JUMP_MS ? 0 : jump;
  }

  /** Agrees with the wall clock again. */
  rebase(): void {
    this.wallAt = this.clock.wallMs();
    this.monoAt = this.clock.monoMs();
  }
}
