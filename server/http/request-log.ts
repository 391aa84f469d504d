import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * The request lines' logger: the same log, without the redaction pass (a line holds method, path,
 * status and duration, never a header or body), which costs more than the rest of the line.
 */
const requestLoggers = new WeakMap<Logger, Logger>();
function requestLogger(logger: Logger): Logger {
  let child = requestLoggers.get(logger);
  if (!child) {
    child = logger.child({}, { redact: [] });
    requestLoggers.set(logger, child);
  }
  return child;
}

const STARTED = Symbol('request started, ms');
const LOGGER = Symbol('request logger');
type Logged = ServerResponse & { [STARTED]?: number; [LOGGER]?: Logger };

/** One log line per request: method, path (no query: it may hold a live token), status, duration. Never headers. */
export function logRequest(parent: Logger, res: ServerResponse): void {
  (res as Logged)[STARTED] = performance.now();
  (res as Logged)[LOGGER] = requestLogger(parent);
  // One listener function for every response (no closure per request): it finds what it needs on the response.
  res.on('finish', logFinished);
}

function logFinished(this: ServerResponse): void {
  const res = this as Logged;
  const req = res.req as IncomingMessage & { originalUrl?: string };
  const ms = performance.now() - (res[STARTED] ?? 0);
  const url = req.originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  res[LOGGER]?.info(
    { method: req.method, path: query < 0 ? url : url.slice(0, query), status: res.statusCode, ms: Math.round(ms * 10) / 10 },
    'request',
  );
}

export function requestLog(logger: Logger): RequestHandler {
  return (_req, res, next) => {
    logRequest(logger, res);
    next();
  };
}
