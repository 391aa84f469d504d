/** Wakes the dispatcher when deliveries are queued (an event recorded, a redelivery): it then looks at the outbox at once. */
export class OutboxSignal {
  private listener: (() => void) | undefined;

  wake(): void {
    this.listener?.();
  }

  /** The dispatcher's; returns the unsubscribe. */
  onWake(listener: () => void): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }
}
