import { parseAuthorization } from '../auth/credentials.ts';
import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { ServerConfig } from '../server-config.ts';
import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import { ServiceClient } from '../remote/service-client.ts';
import { resetDemoData } from './reset.ts';
import { demoResetBodySchema, demoResetResultSchema, type DemoResetEvent } from './schemas.ts';

/** Where this server answers itself: the bound address, or loopback when it listens on every address. */
export function ownUrl(config: Pick<ServerConfig, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

export function registerDemoRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'post',
      path: '/api/demo/reset',
      tag: 'Demo',
      role: 'admin',
      summary: "Reset the organization's demo data (admin): delete everything it made, then seed the demo organization again.",
      description:
        'Deletes, in one transaction, the QR codes and tags, appointments, service confirmations, import tasks with their excluded rows and ' +
        'uploads, webhooks with their events and deliveries, inboxes with their messages, import handlers and services of the organization. ' +
        'API keys and settings stay. Then seeds it through the API as `serve --demo` does (the demo service catalog, an inbox with a webhook, ' +
        "300 sites, a week of appointments), acting with the caller's key, and answers when that is done (a few seconds). " +
        'Progress: `demo.reset` events on /api/live. 409 while an import of the organization is PENDING or PROCESSING (nothing is deleted).',
      body: demoResetBodySchema,
      response: demoResetResultSchema,
      errors: [409],
    },
    async ({ body, principal, req }) => {
      requireOrganization(principal, body.organization_uuid);
      const credential = parseAuthorization(req.headers.authorization);
      if (!credential) throw new ApiError('UNAUTHORIZED', 'Malformed credential.');
      const client = new ServiceClient({ baseUrl: ownUrl(ctx.config), ...credential });
      const publish = (data: DemoResetEvent) => ctx.live.publish({ type: 'demo.reset', organization_uuid: body.organization_uuid, data });
      return resetDemoData(ctx, body.organization_uuid, client, publish);
    },
  );
}
