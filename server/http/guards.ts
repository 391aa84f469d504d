import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { ServerConfig } from '../server-config.ts';
import { ApiError } from './errors.ts';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Host headers this server answers to; null means any (bound to a non-loopback address). */
export function acceptedHosts(config: ServerConfig): Set<string> | null {
  if (!isLoopbackHost(config.host)) return null;
  const names = [...LOOPBACK_NAMES, config.host, ...config.allowedHosts];
  return new Set([...names.map((name) => `${name}:${config.port}`), ...config.allowedHosts].map((h) => h.toLowerCase()));
}

/**
 * What every request passes before any route: the security headers are set, and a request is
 * refused when its Host is not served here (DNS rebinding: a page on evil.example that resolves
 * to 127.0.0.1 still sends Host: evil.example) or when it comes from another origin (no CORS).
 * Returns the refusal, or undefined to go on.
 */
export function requestGuard(config: ServerConfig): (req: IncomingMessage, res: ServerResponse) => ApiError | undefined {
  // Built once the port is known (listen may pick it), not on every request.
  let cached: { port: number; hosts: Set<string> | null } | undefined;
  return (req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (cached?.port !== config.port) cached = { port: config.port, hosts: acceptedHosts(config) };
    const accepted = cached.hosts;
    const host = (req.headers.host ?? '').toLowerCase();
    if (accepted && !accepted.has(host)) {
      return new ApiError(
        'FORBIDDEN',
        `Host ${host || '(none)'} is not served here. Use http://127.0.0.1:${config.port}, or start with --allowed-host.`,
      );
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) {
      return new ApiError('FORBIDDEN', `Cross-origin requests from ${origin} are not allowed.`);
    }
    return undefined;
  };
}

/** requestGuard as express middleware. */
export function guards(config: ServerConfig): RequestHandler {
  const guard = requestGuard(config);
  return (req, res, next) => next(guard(req, res));
}
