/**
 * Forwards (forward_to) run a few at a time over all inboxes, the others wait in a bounded queue:
 * an app that never answers holds a few connections for their 15 s timeout, not one per message.
 * A queued forward holds the message's uuid only; its bytes are read when it starts.
 */
import type { ReceiverDeps } from './deps.ts';
import { inboxLimits } from './limits.ts';
import { receiverRuntime } from './runtime.ts';
import { perServer } from './per-server.ts';

export class ForwardQueue {
  private running = 0;
  private readonly waiting: Array<() => Promise<void>> = [];

  private readonly ctx: object;
  readonly concurrency: number;
  readonly capacity: number;

  constructor(ctx: object, concurrency: number, capacity: number) {
    this.ctx = ctx;
    this.concurrency = concurrency;
    this.capacity = capacity;
  }

  /** Runs `forward` now or later; false (and it never runs) when the queue is full. */
  submit(forward: () => Promise<void>): boolean {
    if (this.running < this.concurrency) {
      this.start(forward);
      return true;
    }
    if (this.waiting.length >= this.capacity) return false;
    this.waiting.push(forward);
    return true;
  }

  private start(forward: () => Promise<void>): void {
    const runtime = receiverRuntime(this.ctx);
    this.running += 1;
    runtime.track(
      forward().finally(() => {
        this.running -= 1;
        const next = runtime.stopped ? undefined : this.waiting.shift();
        if (runtime.stopped) this.waiting.length = 0;
        if (next) this.start(next);
      }),
    );
  }
}

export const forwardQueue = perServer((ctx: ReceiverDeps) => {
  const limits = inboxLimits(ctx.config);
  return new ForwardQueue(ctx, limits.forwards, limits.forwardQueue);
});
