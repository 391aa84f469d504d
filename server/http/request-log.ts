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

/** One log line per request: method, path (no query: it may hold a live token), status, duration. Never headers. */
export function logRequest(parent: Logger, req: IncomingMessage, res: ServerResponse): void {
  const logger = requestLogger(parent);
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    const query = url.indexOf('?');
    logger.info(
      { method: req.method, path: query < 0 ? url : url.slice(0, query), status: res.statusCode, ms: Math.round(ms * 10) / 10 },
      'request',
    );
  });
}

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    logRequest(logger, req, res);
    next();
  };
}
