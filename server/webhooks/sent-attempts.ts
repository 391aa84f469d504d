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

  /** The attempt whose body this is, if it is being sent now (no text is made of the body while none is). */
  find(body: Buffer): SentAttempt | undefined {
    return this.byBody.size === 0 ? undefined : this.byBody.get(body.toString('utf8'));
  }
}

export const sentAttempts = perServer<SentAttempts, object>(() => new SentAttempts());
