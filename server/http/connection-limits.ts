/**
 * How many connections the server keeps and for how long, so that a flood of idle or slow
 * connections cannot use up its open files and lock out the GUI, the API and health checks. A
 * connection that has not yet sent a request's headers is "waiting"; when a cap is reached, the
 * oldest waiting connection (of the address, or of any) is closed to make room, and only when none
 * is waiting is the new one closed at once. On a laptop every client, a flood included, comes from
 * 127.0.0.1, so making room is what lets the user's own request through. Requests a route holds
 * idle (waits for inbox messages, idle-holds.ts) are closed next, oldest first; a request in
 * progress (an upload, a kept-alive connection between the GUI's requests) never is. Every
 * loopback address (127.0.0.0/8, ::1) counts as one client: the per-address cap cannot be
 * sidestepped from 127.0.0.2.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type net from 'node:net';
import { oldestHold, releaseHold } from './idle-holds.ts';

export interface ConnectionLimits {
  /** Connections open at once, all addresses together. */
  maxConnections: number;
  /** Connections open at once from one client address. */
  maxConnectionsPerAddress: number;
  /** Time for a request's headers to arrive, from its first byte or from the connection. */
  headersTimeoutMs: number;
  /** Time for a whole request, body included, to arrive (an upload). */
  requestTimeoutMs: number;
  /** How long an idle connection is kept for the client's next request. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_MAX_CONNECTIONS = 1000;
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 500;
/** 256 MB at 2 MB/s: a loopback or LAN upload takes a fraction of it. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const HEADERS_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** How often node looks for requests past their headers or request timeout. */
const TIMEOUT_CHECK_MS = 1_000;

/** The process's limit of open files (Linux), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return line?.[1] ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The limits with `given` applied over the defaults. Without --max-connections, the total stays
 * under half the open-file limit: the rest is for the database, logs, uploads, import workers and
 * outgoing deliveries.
 */
export function connectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const files = openFileLimit();
  const maxConnections = given.maxConnections ?? Math.min(DEFAULT_MAX_CONNECTIONS, files ? Math.floor(files / 2) : Infinity);
  const requestTimeoutMs = given.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return {
    maxConnections,
    maxConnectionsPerAddress: given.maxConnectionsPerAddress ?? Math.min(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, maxConnections),
    headersTimeoutMs: Math.min(given.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeoutMs),
    requestTimeoutMs,
    keepAliveTimeoutMs: given.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
  };
}

/** node:http server options for the timeouts. */
export function timeoutOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
  };
}

/** The address a connection counts under: all loopback addresses are one client. */
export function clientOf(address: string): string {
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1' ? 'loopback' : address;
}

/** Keeps the server's connections within the caps (see the top of this file). */
export function limitConnections(server: http.Server, limits: ConnectionLimits): void {
  const addressOf = new Map<net.Socket, string>();
  const perAddress = new Map<string, number>();
  /** Connections that have not sent a request's headers yet, oldest first: all, and by address. */
  const waiting = new Set<net.Socket>();
  const waitingFrom = new Map<string, Set<net.Socket>>();

  const stopWaiting = (socket: net.Socket, address: string) => {
    waiting.delete(socket);
    const mine = waitingFrom.get(address);
    mine?.delete(socket);
    if (mine?.size === 0) waitingFrom.delete(address);
  };
  const forget = (socket: net.Socket) => {
    const address = addressOf.get(socket);
    if (address === undefined) return;
    addressOf.delete(socket);
    stopWaiting(socket, address);
    const left = (perAddress.get(address) ?? 1) - 1;
    if (left === 0) perAddress.delete(address);
    else perAddress.set(address, left);
  };
  /** Closes the oldest of `candidates`, else ends the oldest held request `from` (undefined: any address); false when there is none. */
  const makeRoom = (candidates: Set<net.Socket> | undefined, from: string | undefined) => {
    const oldest = candidates?.values().next().value;
    if (oldest) {
      forget(oldest);
      oldest.destroy();
      return true;
    }
    const held = oldestHold((socket) => addressOf.has(socket) && (from === undefined || addressOf.get(socket) === from));
    if (!held) return false;
    forget(held);
    releaseHold(held);
    return true;
  };

  server.on('connection', (socket: net.Socket) => {
    const address = clientOf(socket.remoteAddress ?? '');
    if ((perAddress.get(address) ?? 0) >= limits.maxConnectionsPerAddress && !makeRoom(waitingFrom.get(address), address)) {
      socket.destroy();
      return;
    }
    if (addressOf.size >= limits.maxConnections && !makeRoom(waiting, undefined)) {
      socket.destroy();
      return;
    }
    addressOf.set(socket, address);
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    waiting.add(socket);
    const mine = waitingFrom.get(address) ?? new Set<net.Socket>();
    waitingFrom.set(address, mine);
    mine.add(socket);
    socket.once('close', () => forget(socket));
  });
  server.on('request', (req: http.IncomingMessage) => {
    const address = addressOf.get(req.socket);
    if (address !== undefined) stopWaiting(req.socket, address);
  });
}
