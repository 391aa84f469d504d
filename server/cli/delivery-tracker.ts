/** Counts the attempts of deliveries from the live stream, so a scenario can wait until the receiver has had them. */
import { countOf } from '../../common/count-words.ts';
import type { ServiceClient } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import { openLiveStream, type LiveMessage, type LiveStream } from './live-stream.ts';

/** How long a step waits for its deliveries' attempts (the sender gives up on an answer after 15 s). */
export const ATTEMPT_WAIT_MS = 60_000;

export class DeliveryTracker {
  private readonly attempts = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private stream: LiveStream | null = null;

  static async open(client: ServiceClient): Promise<DeliveryTracker> {
    const tracker = new DeliveryTracker();
    tracker.stream = await openLiveStream(client, (message) => tracker.seen(message));
    return tracker;
  }

  private seen(message: LiveMessage): void {
    if (message.type !== 'delivery.attempt') return;
    const id = (message.data as { delivery_id?: unknown } | null)?.delivery_id;
    if (typeof id !== 'string') return;
    this.attempts.set(id, (this.attempts.get(id) ?? 0) + 1);
    for (const wake of this.waiters) wake();
  }

  /** Resolves once every delivery has had at least `atLeast` attempts (counted since the tracker opened). */
  async attempted(deliveryIds: string[], atLeast: number, what: string): Promise<void> {
    const done = () => deliveryIds.every((id) => (this.attempts.get(id) ?? 0) >= atLeast);
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        const missing = deliveryIds.filter((id) => (this.attempts.get(id) ?? 0) < atLeast);
        reject(
          new StartupError(
            `${what}: ${missing.length} of ${countOf(deliveryIds.length, 'delivery', 'deliveries')} ${missing.length === 1 ? 'was' : 'were'} not attempted within ${ATTEMPT_WAIT_MS / 1000} s (${missing.join(', ')}). ` +
              'Is the webhook active and its receiver answering? See its delivery log in the GUI.',
          ),
        );
      }, ATTEMPT_WAIT_MS);
      this.waiters.add(wake);
    });
  }

  close(): void {
    this.stream?.close();
  }
}
