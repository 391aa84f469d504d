import type { IncomingMessage } from 'node:http';

/**
 * Requests dispatched without express (fast-get.ts) and how to make them express requests and
 * responses. Giving node's request and response express's prototypes costs more CPU than the rest
 * of a poll (node's own HTTP code then meets objects of another shape on every call), so it is
 * done only when something needs express: a route that takes `req` or `res`, or an error answer.
 */
const pending = new WeakMap<IncomingMessage, () => void>();

export function upgradeLater(req: IncomingMessage, upgrade: () => void): void {
  pending.set(req, upgrade);
}

/** Makes this request and its response express's, if that was left for later (once). */
export function ensureExpress(req: IncomingMessage): void {
  const upgrade = pending.get(req);
  if (!upgrade) return;
  pending.delete(req);
  upgrade();
}
