import { z } from 'zod';
import { sandboxOnly } from './sandbox-only.ts';

type RecordField = 'uuid' | 'created_on' | 'updated_on';

/**
 * A record an organization owns, as the API answers it: its uuid and organization first, its own
 * `fields`, then when it was created and last changed; named `id` in the OpenAPI document.
 * `sandboxOwn` names those of uuid, created_on and updated_on that the service's object of this
 * kind does not have (marked x-sandbox).
 */
export function organizationRecordSchema<F extends z.ZodRawShape>(id: string, fields: F, sandboxOwn: RecordField[] = []) {
  const field = (name: RecordField) => (sandboxOwn.includes(name) ? sandboxOnly(z.string()) : z.string());
  return z
    .object({
      uuid: field('uuid'),
      organization_uuid: z.string(),
      ...fields,
      created_on: field('created_on'),
      updated_on: field('updated_on'),
    })
    .meta({ id });
}
