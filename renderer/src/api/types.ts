/**
 * API shapes, from the types generated from the server's OpenAPI document (schema.d.ts, npm run
 * api-types): a change to the API shows up in `npm run typecheck` once the types are regenerated.
 */
import type { components, operations } from './schema.d.ts';

export type Schemas = components['schemas'];
type JsonContent<R> = R extends { content: { 'application/json': infer T } } ? T : never;
/** The JSON answer of an operation (by operationId) at a success status. */
export type ResponseOf<Op extends keyof operations, Status extends number = 200> = JsonContent<
  operations[Op]['responses'][Status & keyof operations[Op]['responses']]
>;
/** The JSON body an operation takes. */
export type BodyOf<Op extends keyof operations> = JsonContent<NonNullable<operations[Op]['requestBody']>>;

export type ErrorBody = Schemas['ErrorResponse'];
export type ErrorCode = ErrorBody['error']['code'];
export type FieldProblem = NonNullable<ErrorBody['error']['details']>[number];
type AnsweredTask = ResponseOf<'getBackgroundTasksByBackgroundTaskUuid'>;
/** A task as the pages read it: `results` as a record, each page reading the counts and lists it knows. */
export type BackgroundTask = Omit<AnsweredTask, 'results'> & { results: Record<string, unknown> | null };
export type TaskStatus = BackgroundTask['status'];
export type TaskType = BackgroundTask['task_type'];
export type ApiKey = ResponseOf<'getApiKeys'>['items'][number];
export type IssuedApiKey = ResponseOf<'postApiKeys', 201>;
export type Role = ApiKey['role'];
export type Session = ResponseOf<'getSession'>;
export type AppMeta = Schemas['AppMeta'];
export type ImportPreview = Schemas['ImportPreview'];
/** A dry run's answer: the results the import would give, plus dry_run_notes. */
export type CheckAnswer = Record<string, unknown> & { dry_run: true; dry_run_notes?: string[] };

/** One page of a list answer (GET /api/qrcodes, /api/background-tasks…): the API's page fields around items of T. */
export type Page<T> = Omit<ResponseOf<'getQrcodes'>, 'items'> & { items: T[] };

/** One message of GET /api/live (text/event-stream, so not in the generated types): `data` by `type`. */
export interface LiveEvent {
  type: string;
  organization_uuid: string;
  data: unknown;
}

/**
 * A list of every member of a union type, checked by the compiler: a value missing from
 * `values` (or one the union does not have) is a type error. For dropdowns of enum values.
 */
export function allOf<T extends string>() {
  return <const V extends readonly T[]>(...values: V & ([T] extends [V[number]] ? unknown : never)): V => values;
}

export const TASK_STATUSES = allOf<TaskStatus>()('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED');
export const ROLES = allOf<Role>()('viewer', 'editor', 'admin');
