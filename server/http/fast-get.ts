import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Api } from './api.ts';
import { errorHandler } from './error-handler.ts';
import { requestGuard } from './guards.ts';
import { logRequest } from './request-log.ts';

/**
 * The server's request listener. A GET of an API route (polls, lists, reads: most of the traffic)
 * goes straight to its handler, with the same guards, log line, express request/response and
 * error answers as through `app`, but without express's middleware chain and router walk, which
 * cost more than the route itself. Everything else (writes, uploads, the GUI, the inbox) goes to `app`.
 */
export function fastGetListener(app: Express, api: Api, ctx: AppContext): RequestListener {
  const guard = requestGuard(ctx.config);
  const onError = errorHandler(ctx.logger);
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !url.startsWith('/api/')) return app(req, res);
    const query = url.indexOf('?');
    const route = api.findGet(query < 0 ? url : url.slice(0, query));
    if (!route) return app(req, res);

    // What express's app.handle and router do before a route runs.
    const request = Object.setPrototypeOf(req, app.request) as Request;
    const response = Object.setPrototypeOf(res, app.response) as Response;
    request.res = response;
    response.req = request;
    response.locals = Object.create(null) as Record<string, unknown>;
    request.originalUrl = url;
    request.baseUrl = '';
    request.params = route.params as Request['params'];

    const fail: NextFunction = (error?: unknown) => onError(error ?? new Error('route passed the request on'), request, response, () => {});
    const refused = guard(req, res);
    if (refused) return fail(refused);
    logRequest(ctx.logger, req, res);
    void route.handler(request, response, fail);
  };
}
