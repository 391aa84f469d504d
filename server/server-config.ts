/** How the server was started (serve's options): what a capability reads of it takes this, not the whole context. */
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
