import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { z } from 'zod';
import { registerAppointmentImportRoutes } from './appointments/bulk-routes.ts';
import { registerAppointmentRoutes } from './appointments/routes.ts';
import { registerApiKeyRoutes } from './auth/routes.ts';
import type { AppContext } from './context.ts';
import { Api } from './http/api.ts';
import { DOCS_CONTENT_SECURITY_POLICY, renderDocsPage } from './http/docs-page.ts';
import { registerGuiRoutes } from './http/gui.ts';
import { apiNotFound, errorHandler } from './http/error-handler.ts';
import { fastApiListener } from './http/fast-api.ts';
import { guards } from './http/guards.ts';
import { healthSchema } from './http/health.ts';
import { openApiDocument } from './http/openapi.ts';
import { requestLog } from './http/request-log.ts';
import { LiveStreams, registerLiveRoutes } from './live/routes.ts';
import { registerAppMetaRoutes } from './meta/routes.ts';
import { registerRemoteRoutes } from './remote/routes.ts';
import { registerReceiverRoutes } from './receiver/routes.ts';
import { registerImportDraftRoutes } from './import-drafts/routes.ts';
import { registerImportRoutes } from './imports/routes.ts';
import { registerImportTaskRoutes } from './imports/task-routes.ts';
import { registerQrCodeImportRoutes } from './qrcodes/bulk-routes.ts';
import { registerQrCodeRoutes } from './qrcodes/routes.ts';
import { registerGeocoderRoutes } from './geocoding/routes.ts';
import { registerImportHandlerRoutes } from './import-handlers/routes.ts';
import { registerServiceRoutes } from './services/routes.ts';
import { registerTaskRoutes } from './tasks/routes.ts';
import { registerToolRoutes } from './tools/routes.ts';
import { registerConfirmationRoutes } from './confirmations/routes.ts';
import { registerDemoRoutes } from './demo/routes.ts';
import { registerSettingsRoutes } from './settings/routes.ts';
import { registerSnapshotRoutes } from './snapshots/routes.ts';
import { registerWebhookRoutes } from './webhooks/routes.ts';
import { registerEventRoutes } from './events/routes.ts';
import { registerStatsRoutes } from './stats/routes.ts';
import { registerBulkDeliveryRoutes } from './webhooks/bulk-delivery-routes.ts';
import { APP_VERSION } from './version.ts';

export interface BuiltApp {
  app: Express;
  /** For http.createServer: API routes straight to their handler, everything else through `app`. */
  listener: RequestListener;
  api: Api;
  liveStreams: LiveStreams;
}

/** The whole HTTP surface: guards, every capability's routes, the API reference, and the error contract. */
export function buildApp(ctx: AppContext): BuiltApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const api = new Api(ctx);
  const liveStreams = new LiveStreams();

  registerApiKeyRoutes(api, ctx);
  registerTaskRoutes(api, ctx);
  registerQrCodeRoutes(api, ctx);
  registerQrCodeImportRoutes(api, ctx);
  registerImportRoutes(api, ctx);
  registerImportTaskRoutes(api, ctx);
  registerImportDraftRoutes(api, ctx);
  registerLiveRoutes(api, ctx, liveStreams);
  registerRemoteRoutes(api, ctx);
  registerBulkDeliveryRoutes(api, ctx);
  registerWebhookRoutes(api, ctx);
  registerEventRoutes(api, ctx);
  registerStatsRoutes(api, ctx);
  registerConfirmationRoutes(api, ctx);
  registerSettingsRoutes(api, ctx);
  registerToolRoutes(api);
  registerReceiverRoutes(api, ctx);
  registerServiceRoutes(api, ctx);
  registerImportHandlerRoutes(api, ctx);
  registerAppointmentRoutes(api, ctx);
  registerAppointmentImportRoutes(api, ctx);
  registerGeocoderRoutes(api, ctx);
  registerDemoRoutes(api, ctx);
  registerSnapshotRoutes(api, ctx);
  registerMetaRoutes(api, ctx);
  registerAppMetaRoutes(api, ctx);

  app.use(guards(ctx.config), requestLog(ctx.logger));
  app.use(api.router);
  app.use('/api', apiNotFound);
  registerGuiRoutes(app);
  app.use(errorHandler(ctx.logger, ctx.disk));
  return { app, api, liveStreams, listener: fastApiListener(app, api, ctx) };
}

function registerMetaRoutes(api: Api, ctx: AppContext): void {
  let cachedDocument: Record<string, unknown> | undefined;
  const document = () => (cachedDocument ??= openApiDocument(api.routes, APP_VERSION));
  let cachedPage: string | undefined;

  api.publicRoute(
    {
      method: 'get',
      path: '/api/health',
      tag: 'Meta',
      summary: 'Is the server up, which version, and is its disk full.',
      response: healthSchema,
    },
    async () => ({ status: 'ok' as const, version: APP_VERSION, disk_full: ctx.disk.full }),
  );
  api.publicRoute(
    {
      method: 'get',
      path: '/api/openapi.json',
      tag: 'Meta',
      summary: 'This API as an OpenAPI 3.1 document.',
      description:
        'Generate a typed client from it, e.g. npx openapi-typescript http://127.0.0.1:8787/api/openapi.json -o qr-sandbox-api.d.ts',
      response: z.record(z.string(), z.unknown()).describe('The OpenAPI 3.1 document'),
    },
    async () => document(),
  );
  api.publicRoute(
    {
      method: 'get',
      path: '/api/docs',
      tag: 'Meta',
      summary: 'Readable API reference (works offline).',
      responseContent: { 'text/html': 'The reference page' },
    },
    async ({ res }) => {
      // Rendered from the document as clients read it (JSON), once.
      cachedPage ??= renderDocsPage(JSON.parse(JSON.stringify(document())) as Record<string, unknown>);
      const page = cachedPage;
      res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
      res.type('html').send(page);
    },
  );
}
