import type { Logger } from 'pino';
import type { DiskSpace } from './data-dir/disk-space.ts';
import type { CountThread } from './db/count-thread-client.ts';
import type { Db } from './db/database.ts';
import type { ImportRuntime } from './imports/workers/runtime.ts';
import type { ServerCheckpoints } from './db/wal/server-checkpoints.ts';
import type { LiveBus } from './live/bus.ts';
import type { SecretCodec } from './remote/profiles.ts';
import type { OutboxSignal } from './webhooks/outbox-signal.ts';
import type { ServerConfig } from './server-config.ts';

/** What every capability's routes and logic get: one database, one logger, one live bus, the import runtime. */
export interface AppContext {
  db: Db;
  logger: Logger;
  live: LiveBus;
  config: ServerConfig;
  /** Import workers, task submission and the geocoder (server/imports). */
  imports: ImportRuntime;
  /** Counts that take long, answered off the server's thread (QR code search totals). */
  counts: CountThread;
  /** Whether the data folder's drive is full (writes then answer 507). */
  disk: DiskSpace;
  /** The server connection's WAL checkpoints (the receiver counts inbox bytes into them). */
  wal: ServerCheckpoints;
  /** Wakes the webhook dispatcher when deliveries are queued. */
  outbox: OutboxSignal;
  /** Encrypts connection profile secrets (the desktop app's safeStorage); headless keeps them in clear text. */
  secretCodec?: SecretCodec;
  /** Set while `serve --demo` keeps simulated events coming (the GUI then shows its live first screen). */
  demo?: { intervalMs: number };
}
