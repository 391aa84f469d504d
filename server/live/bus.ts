import { EventEmitter } from 'node:events';

/** One update for GUI clients, e.g. task.progress, task.finished, delivery.attempt, inbox.message. */
export interface LiveEvent {
  type: string;
  organization_uuid: string;
  data: unknown;
}

/** In-process fan-out of live events to the open /api/live streams. */
export class LiveBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: LiveEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
