/**
 * What QR Sandbox adds to the service's API is marked in the OpenAPI document with this extension:
 * every operation the service does not have (service-operations.ts), and every field, parameter and
 * header of the service's operations that is the sandbox's own.
 */
import type { z } from 'zod';

export const SANDBOX_EXTENSION = 'x-sandbox';

/** Marks a field or parameter as the sandbox's own (apply it last: `.optional()` and the like may follow). */
export function sandboxOnly<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [SANDBOX_EXTENSION]: true });
}

/** A schema marked by sandboxOnly, looking through optional, nullable and default. */
export function isSandboxOnly(schema: z.ZodType): boolean {
  for (let current: z.ZodType | undefined = schema; current; ) {
    if (current.meta()?.[SANDBOX_EXTENSION] === true) return true;
    current = (current._zod.def as { innerType?: z.ZodType }).innerType;
  }
  return false;
}
