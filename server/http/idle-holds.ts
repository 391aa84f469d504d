/**
 * Requests a route holds open while nothing happens (a wait for inbox messages). At a connection
 * cap they are closed to make room, oldest first, like connections that have not sent a request:
 * the GUI's and CLI's own requests outrank them. The route's release answers the held request
 * and lets its connection close.
 */
import type net from 'node:net';

const holds = new Map<net.Socket, () => void>();

/** Marks the socket's request as held idle until the returned function is called; `release` ends it early. */
export function holdIdle(socket: net.Socket, release: () => void): () => void {
  holds.set(socket, release);
  return () => {
    if (holds.get(socket) === release) holds.delete(socket);
  };
}

/** The oldest held socket that `accept` takes (the connection limiter's own, of one address), or undefined. */
export function oldestHold(accept: (socket: net.Socket) => boolean): net.Socket | undefined {
  for (const socket of holds.keys()) if (accept(socket)) return socket;
  return undefined;
}

/** Ends the socket's held request (its route answers it and closes the connection). */
export function releaseHold(socket: net.Socket): void {
  const release = holds.get(socket);
  holds.delete(socket);
  release?.();
}
