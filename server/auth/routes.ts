import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { nowIso } from '../time.ts';
import { issueApiKey } from './keys.ts';
import { requireOrganization } from './principal.ts';
import { apiKeyListSchema, apiKeyParamsSchema, createApiKeyBodySchema, issuedApiKeySchema, sessionSchema } from './schemas.ts';
import { findKeyWithOrganization, listKeys, revokeKey } from './store.ts';

export function registerApiKeyRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'get',
      path: '/api/session',
      tag: 'API keys',
      summary: 'Who the credential in use is: its key, name, role and organization.',
      description: 'Clients that hold only <api_key>:<api_secret> (the GUI after signing in) learn their organization_uuid here.',
      response: sessionSchema,
    },
    async ({ principal }) => {
      const session = await findKeyWithOrganization(ctx.db.kysely, principal.apiKey);
      if (!session) throw new ApiError('UNAUTHORIZED', 'Invalid API key or secret.');
      return session;
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/api-keys',
      tag: 'API keys',
      role: 'admin',
      summary: 'Create an API key for your organization. The secret is in this answer only.',
      body: createApiKeyBodySchema,
      status: 201,
      response: issuedApiKeySchema,
    },
    async ({ body, principal }) => {
      const organizationUuid = body.organization_uuid ?? principal.organizationUuid;
      requireOrganization(principal, organizationUuid);
      return issueApiKey(ctx.db.kysely, { organizationUuid, role: body.role, name: body.name });
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/api-keys',
      tag: 'API keys',
      role: 'admin',
      summary: "List your organization's active API keys (never their secrets).",
      response: apiKeyListSchema,
    },
    async ({ principal }) => ({ items: await listKeys(ctx.db.kysely, principal.organizationUuid) }),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/api-keys/{api_key}',
      tag: 'API keys',
      role: 'admin',
      summary: 'Revoke an API key. It stops working at once.',
      params: apiKeyParamsSchema,
      status: 204,
      errors: [409],
    },
    async ({ params, principal }) => {
      if (params.api_key === principal.apiKey) {
        throw new ApiError('CONFLICT', 'You cannot revoke the API key you are using; use another admin key.');
      }
      if (!(await revokeKey(ctx.db.kysely, principal.organizationUuid, params.api_key, nowIso()))) {
        throw notFound(`API key ${params.api_key}`);
      }
    },
  );
}
