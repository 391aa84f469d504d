import { perServer } from './per-server.ts';

/**
 * The receiver's work that outlives a request: relays in flight and delayed answers. On shutdown
 * delays end at once and relays are aborted, so the server closes quickly and nothing writes to a
 * closed database.
 */
export class ReceiverRuntime {
  private readonly stopping = new AbortController();
  private readonly pending = new Set<Promise<unknown>>();

  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Runs work in the background, tracked until it settles. The work reports its own errors. */
  track(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.then(
      () => undefined,
      () => undefined,
    );
    void tracked.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  async stop(): Promise<void> {
    this.stopping.abort(new Error('The server is shutting down.'));
    await Promise.allSettled([...this.pending]);
  }
}

export const receiverRuntime = perServer(() => new ReceiverRuntime());

/** For server.ts: before the database closes. */
export async function stopReceiver(ctx: object): Promise<void> {
  await receiverRuntime.existing(ctx)?.stop();
}
