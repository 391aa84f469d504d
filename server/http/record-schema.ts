import { z } from 'zod';

/**
 * A record an organization owns, as the API answers it: its uuid and organization first, its own
 * `fields`, then when it was created and last changed; named `id` in the OpenAPI document.
 */
export function organizationRecordSchema<F extends z.ZodRawShape>(id: string, fields: F) {
  return z
    .object({ uuid: z.string(), organization_uuid: z.string(), ...fields, created_on: z.string(), updated_on: z.string() })
    .meta({ id });
}
