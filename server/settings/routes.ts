import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { settingsPatchSchema, settingsQuerySchema, settingsSchema } from './schemas.ts';
import { getSettings, serverDefaults, updateSettings } from './settings.ts';

export function registerSettingsRoutes(api: Api, ctx: AppContext): void {
  const server = () => serverDefaults(ctx.config);
  api.route(
    {
      method: 'get',
      path: '/api/settings',
      tag: 'Settings',
      summary:
        "The organization's settings: webhook retry schedule, whether plain http webhook URLs are allowed, how imports read dates (date_order); and the server's data folder.",
      query: settingsQuerySchema,
      response: settingsSchema,
    },
    async ({ query, principal }) => {
      const organizationUuid = query.organization_uuid ?? principal.organizationUuid;
      requireOrganization(principal, organizationUuid);
      return getSettings(ctx.db.kysely, organizationUuid, server());
    },
  );

  api.route(
    {
      method: 'patch',
      path: '/api/settings',
      tag: 'Settings',
      role: 'admin',
      summary: 'Change settings (admin). webhook_retry_schedule applies to the next retry of every pending delivery.',
      body: settingsPatchSchema,
      response: settingsSchema,
    },
    async ({ body, principal }) => {
      const organizationUuid = body.organization_uuid ?? principal.organizationUuid;
      requireOrganization(principal, organizationUuid);
      return updateSettings(ctx.db.kysely, organizationUuid, body, server());
    },
  );
}
