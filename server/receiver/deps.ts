/**
 * What the receiver's logic takes of the server, named by the parts it reads instead of the whole
 * server context (server/context.ts), so the receiver imports only what it uses. A route passes the
 * server's context object itself: the receiver's per-server parts (per-server.ts) are keyed by it.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { LiveBus } from '../live/bus.ts';
import type { ServerConfig } from '../server-config.ts';

/** Reading and writing inboxes, messages and relays. */
export interface ReceiverStore {
  db: Db;
}

/** The store, and serve's options (inbox limits, the address inboxes are reached at, webhook timeouts). */
export interface ReceiverDeps extends ReceiverStore {
  config: ServerConfig;
}

/** What answering waits takes besides: the live bus it listens to and the logger. */
export interface ReceiverWorkers extends ReceiverDeps {
  live: LiveBus;
  logger: Logger;
}
