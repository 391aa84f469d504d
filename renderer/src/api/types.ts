/**
 * API shapes, taken from the server's zod schemas by `import type` only: nothing of the
 * server (or zod) ends up in the bundle, and a change to a schema shows up in `npm run typecheck`.
 */
import type { z } from 'zod';
import type { apiKeySchema, issuedApiKeySchema, sessionSchema } from '../../../server/auth/schemas.ts';
import type { Role } from '../../../server/auth/roles.ts';
import type { ErrorBody, ErrorCode, FieldProblem } from '../../../server/http/errors.ts';
import type { healthSchema } from '../../../server/http/health.ts';
import type { Page } from '../../../server/http/pagination.ts';
import type { LiveEvent } from '../../../server/live/schemas.ts';
import type { BackgroundTask, TaskStatus, TaskType } from '../../../server/tasks/schemas.ts';

export type { BackgroundTask, ErrorBody, ErrorCode, FieldProblem, LiveEvent, Page, Role, TaskStatus, TaskType };
export type ApiKey = z.infer<typeof apiKeySchema>;
export type IssuedApiKey = z.infer<typeof issuedApiKeySchema>;
export type Session = z.infer<typeof sessionSchema>;
export type Health = z.infer<typeof healthSchema>;

/**
 * A list of every member of a union type, checked by the compiler: a value missing from
 * `values` (or one the union does not have) is a type error. For dropdowns of enum values.
 */
export function allOf<T extends string>() {
  return <const V extends readonly T[]>(...values: V & ([T] extends [V[number]] ? unknown : never)): V => values;
}

export const TASK_STATUSES = allOf<TaskStatus>()('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED');
export const TASK_TYPES = allOf<TaskType>()('IMPORT', 'QR_IMPORT', 'APPOINTMENT_IMPORT');
export const ROLES = allOf<Role>()('viewer', 'editor', 'admin');
