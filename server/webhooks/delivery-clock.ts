/** Where the dispatcher reads the time: the wall clock (due times stored in the outbox) and a monotonic one. Tests pass their own. */
export interface Clock {
  wallMs(): number;
  monoMs(): number;
}

export const systemClock: Clock = { wallMs: () => Date.now(), monoMs: () => performance.now() };
