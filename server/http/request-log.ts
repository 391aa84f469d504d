import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/** One log line per request: method, path (no query: it may hold a live token), status, duration. Never headers. */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
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
