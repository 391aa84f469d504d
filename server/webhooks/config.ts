import type { ServerConfig } from '../server-config.ts';
import type { RetryScheduleName } from './retry-schedule.ts';

/** 15 s per attempt unless the organization's webhook_timeout_s says otherwise (docs/webhooks.md, "Delivery, retries and the deliveries log"). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
export const MIN_DELIVERY_TIMEOUT_S = 1;
export const MAX_DELIVERY_TIMEOUT_S = 120;

/**
 * A TCP connection not established by then fails the attempt: a loopback, LAN or internet handshake
 * takes milliseconds, and 5 s leaves room for two lost SYNs (resent after 1 s and 3 s). A host that
 * drops packets (offline, firewalled, gone from the LAN) then holds a slot for 5 s, not 15.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export function defaultRetrySchedule(config: ServerConfig): RetryScheduleName {
  return config.webhookRetrySchedule ?? 'standard';
}

export function deliveryTimeoutMs(config: ServerConfig): number {
  return config.webhookTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
}

/** An attempt's time limit: the organization's webhook_timeout_s when it chose one, else the server's. */
export function attemptTimeoutMs(config: ServerConfig, chosenSeconds: number | null | undefined): number {
  return chosenSeconds == null ? deliveryTimeoutMs(config) : chosenSeconds * 1000;
}

export function connectTimeoutMs(config: ServerConfig): number {
  return config.webhookConnectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
}
