/**
 * The writes of stored requests run one request at a time, each in its own turn of the event loop.
 * SQLite calls are synchronous: without this, the 1 MB bodies of a flood's requests that arrive
 * together are written back to back in one turn, and every other request (the API, the GUI) waits
 * for all of them. With it, other requests are served between two inbox requests' writes.
 */
import { perServer } from './per-server.ts';

export class IntakeTurns {
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The next request gets its turn after the event loop has polled for other work. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) setImmediate(next);
    else this.busy = false;
  }
}

export const intakeTurns = perServer(() => new IntakeTurns());
