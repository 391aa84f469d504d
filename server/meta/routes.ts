import { z } from 'zod';
import { APPOINTMENT_FIELDS } from '../appointments/fields.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { importKindIds } from '../imports/schemas.ts';

export const appMetaSchema = z
  .object({
    import_kinds: z.array(z.enum(importKindIds)).describe('What can be imported, each at its own /bulk endpoint'),
    sync_row_cap: z.number().int().describe('Most rows a sync-mode import (processing_mode=sync) takes'),
    max_upload_bytes: z.number().int().describe('Largest accepted upload or JSON import body'),
    appointment_fields: z.array(z.enum(APPOINTMENT_FIELDS)).describe("An appointment import record's fields, in the template's order"),
  })
  .meta({ id: 'AppMeta' });

/** The facts a client needs to build its forms: kinds, limits and fields of this server. */
export function registerAppMetaRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'get',
      path: '/api/meta',
      tag: 'Meta',
      summary: "This server's import kinds, limits and appointment fields.",
      response: appMetaSchema,
    },
    async () => ({
      import_kinds: [...importKindIds],
      sync_row_cap: ctx.imports.settings.syncRowCap,
      max_upload_bytes: ctx.imports.settings.maxUploadBytes,
      appointment_fields: [...APPOINTMENT_FIELDS],
    }),
  );
}
