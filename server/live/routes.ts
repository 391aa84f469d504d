import type { Response } from 'express';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import { LIVE_TOKEN_TTL_MS, LiveTokens } from './tokens.ts';

const HEARTBEAT_MS = 15_000;

/** Open live streams, so shutdown can end them. */
export class LiveStreams {
  readonly open = new Set<Response>();

  endAll(): void {
    for (const res of this.open) res.end();
    this.open.clear();
  }
}

export function registerLiveRoutes(api: Api, ctx: AppContext, streams: LiveStreams): void {
  const tokens = new LiveTokens();

  api.route(
    {
      method: 'post',
      path: '/api/live/tokens',
      tag: 'Live updates',
      role: 'viewer',
      summary: `Trade the credential for a token that opens /api/live (valid ${LIVE_TOKEN_TTL_MS / 1000} s).`,
      description: 'Browsers cannot set headers on an EventSource; pass this token as ?token= instead.',
      status: 201,
      response: z.object({ token: z.string(), expires_on: z.string() }),
    },
    async ({ principal }) => tokens.issue(principal),
  );

  api.publicRoute(
    {
      method: 'get',
      path: '/api/live',
      tag: 'Live updates',
      summary:
        'Server-sent events for this organization: task.created, task.progress, task.finished, task.removed, delivery and inbox events.',
      description:
        'Authenticate with ?token= from POST /api/live/tokens, or with the Authorization header. Each event is ' +
        '`event: <type>` with `data: {"type","organization_uuid","data"}`. A comment line is sent every 15 s.',
      query: z.object({ token: z.string().optional().describe('Token from POST /api/live/tokens') }),
      responseContent: { 'text/event-stream': 'The event stream' },
      errors: [401],
    },
    async ({ query, req, res }) => {
      let principal: Principal | null;
      if (query.token) {
        principal = tokens.resolve(query.token);
        if (!principal)
          throw new ApiError('UNAUTHORIZED', 'The live token is unknown or expired; get a new one from POST /api/live/tokens.');
      } else {
        principal = await api.authenticate(req);
      }
      const organization = principal.organizationUuid;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 3000\n: connected\n\n');
      streams.open.add(res);
      const unsubscribe = ctx.live.subscribe((event) => {
        if (event.organization_uuid === organization) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
      res.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.open.delete(res);
      });
    },
  );
}
