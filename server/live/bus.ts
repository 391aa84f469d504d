import { EventEmitter } from 'node:events';
import type { LiveEvent } from './schemas.ts';

export type { LiveEvent };

/** In-process fan-out of live events to the open /api/live streams. */
export class LiveBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: LiveEvent): void {
    this.emitter.emit('event', event);
  }

  /** Subscribers now (open streams, waits): for tests that check a subscriber lets go. */
  listenerCount(): number {
    return this.emitter.listenerCount('event');
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
