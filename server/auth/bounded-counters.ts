export interface Counter {
  count: number;
  /** On the throttle's monotonic clock. */
  windowEnds: number;
}

/**
 * Counters by id, each for a window from its first count, at most `max` of them. Expired ones make
 * room first; when every one is live, 'evict-oldest' forgets the oldest windows and 'keep-live'
 * keeps them all and counts no new id (null).
 */
export class BoundedCounters {
  private readonly counters = new Map<string, Counter>();
  private readonly max: number;
  private readonly whenFull: 'evict-oldest' | 'keep-live';

  constructor(max: number, whenFull: 'evict-oldest' | 'keep-live') {
    this.max = max;
    this.whenFull = whenFull;
  }

  /** Adds one to the id's counter (a fresh window when it had none or its window ended). */
  count(id: string, now: number, windowMs: number): Counter | null {
    let counter = this.counters.get(id);
    if (!counter || counter.windowEnds <= now) {
      if (counter) this.counters.delete(id);
      if (this.counters.size >= this.max && !this.makeRoom(now)) return null;
      counter = { count: 0, windowEnds: now + windowMs };
      this.counters.set(id, counter);
    }
    counter.count += 1;
    return counter;
  }

  /** When the oldest live window ends (when a 'keep-live' map has room again). */
  firstWindowEnd(now: number): number {
    for (const counter of this.counters.values()) if (counter.windowEnds > now) return counter.windowEnds;
    return now;
  }

  /** Frees a place; false when none could be (every counter live, and 'keep-live'). */
  private makeRoom(now: number): boolean {
    // Windows all have the same length, so the map's insertion order is the order they end in.
    for (const [id, counter] of this.counters) {
      if (counter.windowEnds > now) break;
      this.counters.delete(id);
    }
    if (this.counters.size < this.max) return true;
    if (this.whenFull === 'keep-live') return false;
    for (const id of this.counters.keys()) {
      this.counters.delete(id);
      if (this.counters.size < this.max) break;
    }
    return true;
  }
}
