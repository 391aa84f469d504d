import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Api } from './api.ts';
import { errorHandler } from './error-handler.ts';
import { requestGuard } from './guards.ts';
import { ensureExpress, upgradeLater } from './lazy-express.ts';
import { logRequest } from './request-log.ts';

/**
 * The server's request listener. A request to an API route (polls, lists, reads, writes: most of
 * the traffic) goes straight to its handler, with the same guards, log line, params, query, body
 * reading and error answers as through `app`, but without express's middleware chain and router
 * walk (every route's pattern tried in turn), which cost more than many a route itself. The request
 * and response become express's only when needed (lazy-express.ts). Everything else (HEAD and
 * OPTIONS, unknown API paths, the GUI, the inbox's receiving URLs) goes to `app`.
 */
export function fastApiListener(app: Express, api: Api, ctx: AppContext): RequestListener {
  const guard = requestGuard(ctx.config);
  const onError = errorHandler(ctx.logger, ctx.disk);
  const parseQuery = app.get('query parser fn') as ((text: string) => Record<string, unknown>) | undefined;
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    // A fragment (never sent by browsers, possible from raw clients) is left to express's URL parsing.
    if (!url.startsWith('/api/') || url.includes('#')) return app(req, res);
    const queryAt = url.indexOf('?');
    const route = api.findRoute(req.method ?? '', queryAt < 0 ? url : url.slice(0, queryAt));
    if (!route) return app(req, res);

    // What express's router gives a route: its params and the parsed query (app's 'query parser').
    const request = req as Request;
    const response = res as Response;
    request.params = route.params as Request['params'];
    (req as { query?: unknown }).query = parseQuery ? parseQuery(queryAt < 0 ? '' : url.slice(queryAt + 1)) : {};
    upgradeLater(req, res, app);

    const fail: NextFunction = (error?: unknown) => {
      ensureExpress(req);
      onError(error ?? new Error('route passed the request on'), request, response, () => {});
    };
    const refused = guard(req, res);
    if (refused) return fail(refused);
    logRequest(ctx.logger, res);
    void route.handler(request, response, fail);
  };
}
