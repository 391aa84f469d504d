import type { Logger } from 'pino';

/** Work of the server that outlives a request: started once the server listens, stopped before the database closes. */
export interface BackgroundService {
  name: string;
  start?(): void | Promise<void>;
  /** Ends the service's work, also when it never started; resolves when nothing of it will touch the database again. */
  stop(): void | Promise<void>;
}

/**
 * The one place background services start and stop. They start one after the other in the order
 * given; stop() tells every one to stop, in reverse order, all at once (they do not depend on each
 * other, only on the database; a start that failed half way leaves nothing running), and resolves
 * when every one has stopped, so the caller closes the database after. A service that fails to
 * stop is logged, not fatal. Stopping twice stops once.
 */
export class BackgroundServices {
  private readonly logger: Logger;
  private readonly services: readonly BackgroundService[];
  private stopped: Promise<void> | undefined;

  constructor(logger: Logger, services: readonly BackgroundService[]) {
    this.logger = logger;
    this.services = services;
  }

  async start(): Promise<void> {
    for (const service of this.services) await service.start?.();
  }

  stop(): Promise<void> {
    this.stopped ??= Promise.all(
      [...this.services].reverse().map(async (service) => {
        try {
          await service.stop();
        } catch (error) {
          this.logger.error({ err: error, service: service.name }, 'a background service failed to stop');
        }
      }),
    ).then(() => undefined);
    return this.stopped;
  }
}
