import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import typeis from 'type-is';
import type { z } from 'zod';
import { authenticate, requireRole, type Principal } from '../auth/principal.ts';
import type { Role } from '../auth/roles.ts';
import { FailedAuthThrottle } from '../auth/throttle.ts';
import type { AppContext } from '../context.ts';
import { brokenTextProblems } from './broken-text.ts';
import { ApiError, invalidFields, validationError } from './errors.ts';
import { JsonFile, sendJsonFile } from './json-file.ts';
import { JsonText } from './json-text.ts';
import { ensureExpress } from './lazy-express.ts';
import { verifyUtf8Body } from './utf8-body.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Schema = z.ZodType | undefined;
export type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export const JSON_BODY_LIMIT = '1mb';

/** Everything the OpenAPI document and the request pipeline need to know about one route. */
export interface RouteSpec<P extends Schema, Q extends Schema, B extends Schema> {
  method: Method;
  /** OpenAPI form, e.g. /api/background-tasks/uuid/{background_task_uuid} */
  path: string;
  /** Express form when it cannot be derived from `path`, e.g. a trailing wildcard `*path`. */
  expressPath?: string;
  tag: string;
  summary: string;
  description?: string;
  /** Least role needed. Default: viewer to read (GET), editor to write. */
  role?: Role;
  params?: P;
  query?: Q;
  body?: B;
  /** 'custom': the handler reads the request itself (uploads, raw bodies); document it in requestBody. */
  bodyKind?: 'json' | 'custom';
  requestBody?: RequestBodyDoc;
  /** Stable name of the operation; default derived from method and path (see operationIdOf). */
  operationId?: string;
  /** Success status; default 200. */
  status?: number;
  /** What the success status means, when more than "Success". */
  successDescription?: string;
  response?: z.ZodType;
  /** Non-JSON success content, e.g. { 'text/csv': 'The template' }. */
  responseContent?: Record<string, string>;
  /** Other answers, e.g. a sync 200 besides the background 202, by status (or 'default': any other status). */
  responses?: Partial<Record<number | 'default', ResponseDoc>>;
  /** Error statuses of the common pipeline this route never answers (e.g. 415 where any content type is taken). */
  omitErrors?: number[];
  /** Extra documented error statuses besides those every route can answer (400, 403, 500; 401 and 429 with a credential). */
  errors?: number[];
}

/** A request body per content type; a zod schema or a JSON Schema (e.g. a multipart form with a binary file field). */
export interface RequestBodyDoc {
  required?: boolean;
  description?: string;
  content: Record<string, { schema?: z.ZodType | Record<string, unknown>; encoding?: Record<string, unknown> }>;
}

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Non-JSON content: { media type: description }. */
  content?: Record<string, string>;
  headers?: Record<string, unknown>;
}

export interface RouteInput<P extends Schema, Q extends Schema, B extends Schema> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  req: Request;
  res: Response;
}

export type AuthedInput<P extends Schema, Q extends Schema, B extends Schema> = RouteInput<P, Q, B> & { principal: Principal };

export interface RegisteredRoute {
  spec: RouteSpec<Schema, Schema, Schema>;
  isPublic: boolean;
}

/** A route as express's router matches it (same path-to-regexp options), for dispatch without the router. */
interface DirectRoute {
  match: MatchFunction<Record<string, string | string[]>>;
  handler: RequestHandler;
}

/**
 * The one way routes are added: input parsed by the route's zod schemas, the caller
 * authenticated and its role checked, the answer sent as JSON, and the route recorded for
 * the OpenAPI document.
 */
export class Api {
  readonly router: Router = express.Router();
  readonly routes: RegisteredRoute[] = [];
  /** Routes by method (as the request names it: GET, POST ...), each list in the order the routes were added. */
  private readonly directRoutes = new Map<string, DirectRoute[]>();
  private readonly ctx: AppContext;
  private readonly throttle: FailedAuthThrottle;

  constructor(ctx: AppContext) {
    this.ctx = ctx;
    this.throttle = new FailedAuthThrottle(ctx.config.authThrottle);
  }

  /** The caller of this request, authenticated from its Authorization header (throttled). */
  authenticate(req: Request): Promise<Principal> {
    return authenticate(this.ctx.db, req.headers.authorization, {
      instance: this.throttle,
      clientAddress: req.socket.remoteAddress ?? 'unknown',
    });
  }

  route<P extends Schema, Q extends Schema, B extends Schema>(
    spec: RouteSpec<P, Q, B>,
    handler: (input: AuthedInput<P, Q, B>) => Promise<unknown>,
  ): void {
    const needed = spec.role ?? (spec.method === 'get' ? 'viewer' : 'editor');
    this.add(spec, false, async (req, res) => {
      const principal = await this.authenticate(req);
      requireRole(principal, needed);
      const input = takesJsonBody(spec) ? await parseInputWithBody(spec, req, res) : parseInput(spec, req, res);
      return handler(Object.assign(input, { principal }));
    });
  }

  publicRoute<P extends Schema, Q extends Schema, B extends Schema>(
    spec: RouteSpec<P, Q, B>,
    handler: (input: RouteInput<P, Q, B>) => Promise<unknown>,
  ): void {
    this.add(spec, true, async (req, res) =>
      handler(takesJsonBody(spec) ? await parseInputWithBody(spec, req, res) : parseInput(spec, req, res)),
    );
  }

  private add(spec: RouteSpec<Schema, Schema, Schema>, isPublic: boolean, run: (req: Request, res: Response) => Promise<unknown>) {
    this.routes.push({ spec, isPublic });
    const handler: RequestHandler = async (req, res, next) => {
      try {
        const result = await run(req, res);
        if (res.headersSent) {
          if (result instanceof JsonFile) await result.discard();
          return;
        }
        const status = spec.status ?? 200;
        if (status === 204) {
          res.statusCode = 204;
          res.end();
        } else if (result instanceof JsonFile) await sendJsonFile(res, status, result, { etag: false });
        else sendJson(res, status, result);
      } catch (error) {
        next(error);
      }
    };
    const expressPath = spec.expressPath ?? toExpressPath(spec.path);
    this.router[spec.method](expressPath, handler);
    const method = spec.method.toUpperCase();
    let routes = this.directRoutes.get(method);
    if (!routes) {
      routes = [];
      this.directRoutes.set(method, routes);
    }
    routes.push({
      match: match(expressPath.replace(/\/+$/, ''), { sensitive: false, end: true, trailing: true, decode: decodeParam }),
      handler,
    });
  }

  /**
   * The route express's router would pick for this method and path (routes are tried in the order
   * they were added, as the router does; a route answers its own method only, so the others are
   * skipped) and its params; undefined when none, or when a param does not decode (express then
   * answers as it always does). HEAD and OPTIONS are left to express (it answers them from the GET
   * routes and the routes' methods).
   */
  findRoute(method: string, pathname: string): { handler: RequestHandler; params: Record<string, string | string[]> } | undefined {
    const routes = this.directRoutes.get(method);
    if (!routes) return undefined;
    for (const route of routes) {
      let found: ReturnType<DirectRoute['match']>;
      try {
        found = route.match(pathname);
      } catch {
        return undefined;
      }
      if (found) return { handler: route.handler, params: found.params };
    }
    return undefined;
  }
}

function decodeParam(value: string): string {
  return value.includes('%') ? decodeURIComponent(value) : value;
}

/** What res.json does, without the ETag (a hash of every answer that no API client uses). A JsonText is sent as it is. */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = body instanceof JsonText ? body.text : (JSON.stringify(body) ?? '');
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function toExpressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

function takesJsonBody(spec: RouteSpec<Schema, Schema, Schema>): boolean {
  return spec.body !== undefined && spec.bodyKind !== 'custom';
}

/** Params and query (a route without a JSON body: no waiting). */
function parseInput<P extends Schema, Q extends Schema, B extends Schema>(
  spec: RouteSpec<P, Q, B>,
  req: Request,
  res: Response,
): RouteInput<P, Q, B> {
  const params = parsePart(spec.params, req.params, 'path');
  const query = parsePart(spec.query, req.query, 'query');
  // req and res are express's once a route reads them (see lazy-express.ts).
  return {
    params,
    query,
    body: undefined,
    get req() {
      ensureExpress(req);
      return req;
    },
    get res() {
      ensureExpress(req);
      return res;
    },
  } as RouteInput<P, Q, B>;
}

async function parseInputWithBody<P extends Schema, Q extends Schema, B extends Schema>(
  spec: RouteSpec<P, Q, B>,
  req: Request,
  res: Response,
): Promise<RouteInput<P, Q, B>> {
  const input = parseInput(spec, req, res);
  await readJsonBody(req, res);
  const broken = brokenTextProblems(req.body, 'body');
  if (broken.length > 0) throw invalidFields(broken);
  input.body = parsePart(spec.body, req.body, 'body') as RouteInput<P, Q, B>['body'];
  return input;
}

function parsePart(schema: Schema, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(where, result.error);
  return result.data;
}

const jsonParser = express.json({ limit: JSON_BODY_LIMIT, strict: false, type: () => true, verify: verifyUtf8Body });

/** A JSON body, or a 415 when the request says it is something else. A request without a body leaves `undefined`. */
export function readJsonBody(req: Request, res: Response): Promise<void> {
  if (!typeis.hasBody(req) || req.headers['content-length'] === '0') {
    req.body = undefined;
    return Promise.resolve();
  }
  if (!typeis(req, ['application/json', '+json'])) {
    const given = req.headers['content-type'] ?? 'none';
    return Promise.reject(
      new ApiError('UNSUPPORTED_MEDIA_TYPE', `This endpoint takes Content-Type application/json; the request sent ${given}.`),
    );
  }
  return new Promise((resolve, reject) => {
    jsonParser(req, res, ((error?: unknown) => (error ? reject(error) : resolve())) as NextFunction);
  });
}
