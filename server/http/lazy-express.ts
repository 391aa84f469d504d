import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';

/**
 * Requests dispatched without express (fast-api.ts) and how to make them express requests and
 * responses. Giving node's request and response express's prototypes costs more CPU than the rest
 * of a poll (node's own HTTP code then meets objects of another shape on every call), so it is
 * done only when something needs express: a route that takes `req` or `res`, or an error answer.
 * The app and response are kept on the request itself (no closure, no WeakMap entry per request).
 */
const LATER_APP = Symbol('express app, for later');
const LATER_RES = Symbol('response, for later');
type Later = IncomingMessage & { [LATER_APP]?: Express; [LATER_RES]?: ServerResponse };

export function upgradeLater(req: IncomingMessage, res: ServerResponse, app: Express): void {
  (req as Later)[LATER_APP] = app;
  (req as Later)[LATER_RES] = res;
}

/** Makes this request and its response express's, if that was left for later (once): what express's app.handle does. */
export function ensureExpress(req: IncomingMessage): void {
  const later = req as Later;
  const app = later[LATER_APP];
  const res = later[LATER_RES];
  if (!app || !res) return;
  later[LATER_APP] = undefined;
  later[LATER_RES] = undefined;
  const request = Object.setPrototypeOf(req, app.request) as Request;
  const response = Object.setPrototypeOf(res, app.response) as Response;
  request.res = response;
  response.req = request;
  response.locals = Object.create(null) as Record<string, unknown>;
  request.originalUrl = req.url ?? '';
  request.baseUrl = '';
}
