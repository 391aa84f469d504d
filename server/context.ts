import type { Logger } from 'pino';
import type { DiskSpace } from './data-dir/disk-space.ts';
import type { CountThread } from './db/count-thread-client.ts';
import type { Db } from './db/database.ts';
import type { ImportRuntime } from './imports/workers/runtime.ts';
import type { ServerCheckpoints } from './db/wal/server-checkpoints.ts';
import type { LiveBus } from './live/bus.ts';
import type { SecretCodec } from './remote/profiles.ts';
import type { OutboxSignal } from './webhooks/outbox-signal.ts';
import type { HostResolver } from './webhooks/pinned-fetch.ts';

export interface ServerConfig {
  dataDir: string;
  host: string;
  /** The port actually bound (known after listen). */
  port: number;
  /** Extra Host header names accepted besides the loopback names (DNS rebinding guard). */
  allowedHosts: string[];
  /** Default webhook retry schedule (serve --retry-schedule); organizations may override it in settings. */
  webhookRetrySchedule?: 'standard' | 'fast';
  /** Timeout of one webhook delivery attempt; default 15 s. */
  webhookTimeoutMs?: number;
  /** Time to establish the TCP connection of one attempt; default 5 s. */
  webhookConnectTimeoutMs?: number;
  /**
   * Messages kept per inbox, largest body, intake rate, forwards at once and waiting (serve --inbox-max-messages,
   * --inbox-max-body-kb, --inbox-max-mb-per-minute, --inbox-forwards, --inbox-forward-queue), waits for messages held per key and
   * per organization (--inbox-waits-per-key, --inbox-waits-per-organization); defaults in receiver/limits.ts.
   */
  inboxLimits?: {
    maxMessages?: number;
    maxBodyBytes?: number;
    bytesPerMinute?: number;
    forwards?: number;
    forwardQueue?: number;
    waitsPerKey?: number;
    waitsPerOrganization?: number;
  };
  /** Wrong credentials allowed per window (serve --auth-max-failures, --auth-max-failures-per-address); defaults in auth/throttle.ts. */
  authThrottle?: { perKey?: number; perAddress?: number; windowMs?: number; maxKeyCounters?: number; maxAddressCounters?: number };
  /** How outgoing requests resolve host names (once, then pinned); the system's by default, a fixed table in tests. */
  hostResolver?: HostResolver;
}

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
