/**
 * The attempts this server is sending right now, by their exact body (a fresh IV makes every
 * attempt's body unique): an inbox of the same server that receives one knows from these records
 * which delivery and attempt it is, without any header the service does not send.
 */
import { perServer } from '../receiver/per-server.ts';

export interface SentAttempt {
  deliveryId: string;
  attempt: number;
  eventType: string;
}

export class SentAttempts {
  private readonly byBody = new Map<string, SentAttempt>();

  /** Records an attempt until the returned function is called (when its answer came or it failed). */
  add(body: string, attempt: SentAttempt): () => void {
    this.byBody.set(body, attempt);
    return () => {
      if (this.byBody.get(body) === attempt) this.byBody.delete(body);
    };
  }

  find(body: string): SentAttempt | undefined {
    return this.byBody.get(body);
  }
}

export const sentAttempts = perServer(() => new SentAttempts());
