import { z } from 'zod';
import type { RegisteredRoute, ResponseDoc } from './api.ts';
import { SANDBOX_ATTEMPT_HEADER, SANDBOX_DELIVERY_ID_HEADER, SANDBOX_EVENT_HEADER, SIGNATURE_HEADER } from '../wire-format/headers.ts';
import { eventTypes, serviceEventTypes } from '../webhook-events/registry.ts';
import { deliveryBodySchema, envelopeSchema } from '../wire-format/schemas.ts';
import { errorBodySchema } from './errors.ts';
import { namedSchemas, schemaName } from './schema-names.ts';
import { isSandboxOnly, SANDBOX_EXTENSION } from './sandbox-only.ts';
import { isServiceOperation } from './service-operations.ts';

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';
const ERROR_SCHEMA = schemaName(errorBodySchema) ?? 'ErrorResponse';

/** Error statuses as reusable responses (components/responses), each with the one error body. */
const errorResponses: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Invalid input (VALIDATION_ERROR, with details naming each field)' },
  401: { name: 'Unauthorized', description: 'Missing, malformed or wrong credential (UNAUTHORIZED)' },
  403: {
    name: 'Forbidden',
    description: 'The key lacks the role or acts on another organization, or the request came through a foreign Host or Origin (FORBIDDEN)',
  },
  404: { name: 'NotFound', description: 'Not found, or not visible to this key (NOT_FOUND)' },
  409: { name: 'Conflict', description: 'Conflicts with the current state (CONFLICT)' },
  413: { name: 'PayloadTooLarge', description: 'Body or upload too large (PAYLOAD_TOO_LARGE)' },
  415: { name: 'UnsupportedMediaType', description: 'Wrong Content-Type (UNSUPPORTED_MEDIA_TYPE)' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many failed attempts from this address; wait the seconds in Retry-After (TOO_MANY_REQUESTS)',
  },
  500: { name: 'InternalError', description: 'Unexpected error; the details are only in the server log (INTERNAL)' },
  502: { name: 'BadGateway', description: 'A remote service could not be reached or refused the credential (BAD_GATEWAY)' },
  503: {
    name: 'ServiceUnavailable',
    description:
      'The database stayed busy with an import for a minute: nothing was changed; try again after Retry-After (SERVICE_UNAVAILABLE)',
  },
  507: {
    name: 'InsufficientStorage',
    description: 'The disk that holds the data folder is full: nothing was written; free some space and try again (INSUFFICIENT_STORAGE)',
  },
};

/** The error statuses a route can answer, from what its pipeline does: parse input, authenticate, read a body. */
export function errorStatuses({ spec, isPublic }: RegisteredRoute): number[] {
  const statuses = new Set<number>([403, 500, ...(spec.method === 'get' ? [] : [503, 507]), ...(spec.errors ?? [])]);
  if (!isPublic) for (const s of [401, 429]) statuses.add(s);
  if (spec.params || spec.query || spec.body || spec.requestBody) statuses.add(400);
  if (spec.body || spec.requestBody) for (const s of [413, 415]) statuses.add(s);
  if (spec.params) statuses.add(404);
  for (const status of [...Object.keys(spec.responses ?? {}).map(Number), ...(spec.omitErrors ?? [])]) statuses.delete(status);
  return [...statuses].sort((a, b) => a - b);
}

/** `get /api/background-tasks/uuid/{background_task_uuid}` -> `getBackgroundTasksByBackgroundTaskUuid`. */
export function operationIdOf(method: string, path: string): string {
  const pascal = (text: string) => text.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
  const segments = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean);
  const words = segments.flatMap((segment, i) => {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (param) return [`By${pascal(param[1]!)}`];
    // `uuid/{uuid}` reads as "by uuid" alone.
    if (segment === 'uuid' && /^\{\w+\}$/.test(segments[i + 1] ?? '')) return [];
    return [pascal(segment)];
  });
  return method + words.join('');
}

/**
 * Converts zod schemas to JSON Schema in one pass per direction, so that every named schema
 * (`.meta({ id })`) becomes one component that every use refers to. Schemas are handed out as
 * empty objects first and filled in by `finish()`, once all of them are known.
 */
class SchemaConverter {
  private readonly pending: { schema: z.ZodType; io: Io; target: JsonSchema }[] = [];

  use(schema: z.ZodType, io: Io): JsonSchema {
    const target: JsonSchema = {};
    this.pending.push({ schema, io, target });
    return target;
  }

  /** Fills every handed-out schema and answers the components they refer to. */
  finish(): Record<string, JsonSchema> {
    const converted = { output: this.convert('output'), input: this.convert('input') };
    const inputName = inputNames(converted.output.named, converted.input.named);
    const rename = (json: unknown) => renameInputRefs(json, inputName);
    for (const { schema, io, target } of this.pending) {
      const name = schemaName(schema);
      const json = name ? { $ref: COMPONENTS + (io === 'input' ? inputName(name) : name) } : converted[io].anonymous.get(schema)!;
      Object.assign(target, io === 'input' ? rename(json) : json);
    }
    const components: Record<string, JsonSchema> = {};
    for (const [name, json] of converted.output.named) components[name] = json;
    for (const [name, json] of converted.input.named) {
      if (inputName(name) !== name) components[inputName(name)] = rename(json) as JsonSchema;
      else components[name] ??= rename(json) as JsonSchema;
    }
    return components;
  }

  private convert(io: Io): { named: Map<string, JsonSchema>; anonymous: Map<z.ZodType, JsonSchema> } {
    const used = this.pending.filter((p) => p.io === io).map((p) => p.schema);
    const registry = z.registry<{ id: string }>();
    const anonymousIds = new Map<z.ZodType, string>();
    for (const [name, schema] of namedSchemas(used)) registry.add(schema, { id: name });
    for (const schema of used) {
      if (schemaName(schema) || anonymousIds.has(schema)) continue;
      const id = `~anonymous${anonymousIds.size}`;
      anonymousIds.set(schema, id);
      registry.add(schema, { id });
    }
    const placeholder = (id: string) => (io === 'input' ? `${COMPONENTS}${id}~input` : `${COMPONENTS}${id}`);
    const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: 'any', reused: 'inline', cycles: 'ref', uri: placeholder });
    const clean = (json: unknown): JsonSchema => {
      const { $schema: _s, $id: _i, ...rest } = json as JsonSchema;
      return rest;
    };
    const named = new Map<string, JsonSchema>();
    const anonymous = new Map<z.ZodType, JsonSchema>();
    for (const [id, json] of Object.entries(schemas)) {
      if (id === '__shared') throw new Error(`A schema is shared without a name: ${JSON.stringify(json).slice(0, 200)}`);
      if (!id.startsWith('~anonymous')) named.set(id, clean(json));
    }
    // An unnamed schema used by one route and inside another's is written out in place.
    const inline = (json: unknown): unknown =>
      JSON.parse(JSON.stringify(json), (_key, value: unknown) => {
        const ref = (value as { $ref?: unknown } | null)?.$ref;
        return typeof ref === 'string' && ref.startsWith(`${COMPONENTS}~anonymous`)
          ? inline(clean(schemas[ref.slice(COMPONENTS.length).replace(/~input$/, '')]))
          : value;
      });
    for (const [name, json] of named) named.set(name, inline(json) as JsonSchema);
    for (const [schema, id] of anonymousIds) anonymous.set(schema, inline(clean(schemas[id])) as JsonSchema);
    return { named, anonymous };
  }
}

/**
 * A named schema keeps its name as input when it is only read, or when reading it means the same
 * as writing it; otherwise its input form is `<Name>Input` (e.g. a field with a default is optional to send).
 */
function inputNames(output: Map<string, JsonSchema>, input: Map<string, JsonSchema>): (name: string) => string {
  const differs = new Set<string>();
  const refsOf = (json: unknown): string[] =>
    [...JSON.stringify(json).matchAll(/"\$ref":"#\/components\/schemas\/([^"~]+)~input"/g)].map((m) => m[1]!);
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, json] of input) {
      if (differs.has(name) || !output.has(name)) continue;
      const sameShape = JSON.stringify(json).replaceAll('~input"', '"') === JSON.stringify(output.get(name));
      if (!sameShape || refsOf(json).some((r) => differs.has(r))) {
        differs.add(name);
        changed = true;
      }
    }
  }
  return (name) => (differs.has(name) ? `${name}Input` : name);
}

function renameInputRefs(json: unknown, inputName: (name: string) => string): unknown {
  return JSON.parse(
    JSON.stringify(json).replace(/"#\/components\/schemas\/([^"~]+)~input"/g, (_m, name: string) => `"${COMPONENTS}${inputName(name)}"`),
  );
}

function parameters(converter: SchemaConverter, schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const description = field.description ?? z.globalRegistry.get(field)?.description;
    return {
      name,
      in: location,
      required: location === 'path' || !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      ...(isSandboxOnly(field) ? { [SANDBOX_EXTENSION]: true } : {}),
      schema: converter.use(field, 'input'),
    };
  });
}

function responseDoc(converter: SchemaConverter, doc: ResponseDoc): JsonSchema {
  const content: Record<string, unknown> = {};
  if (doc.schema) content['application/json'] = { schema: converter.use(doc.schema, 'output') };
  for (const [type, description] of Object.entries(doc.content ?? {})) content[type] = { schema: { type: 'string', description } };
  return {
    description: doc.description,
    ...(doc.headers ? { headers: doc.headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

function requestBody(converter: SchemaConverter, route: RegisteredRoute): JsonSchema | undefined {
  const { spec } = route;
  if (spec.requestBody) {
    const content: Record<string, unknown> = {};
    for (const [type, media] of Object.entries(spec.requestBody.content)) {
      content[type] = media.schema instanceof z.ZodType ? { ...media, schema: converter.use(media.schema, 'input') } : media;
    }
    return { ...spec.requestBody, content };
  }
  if (!spec.body) return undefined;
  return { required: true, content: { 'application/json': { schema: converter.use(spec.body, 'input') } } };
}

function operation(converter: SchemaConverter, route: RegisteredRoute): JsonSchema {
  const { spec, isPublic } = route;
  const success = spec.status ?? 200;
  const responses: Record<string, unknown> = {
    [String(success)]: responseDoc(converter, {
      description: spec.successDescription ?? (success === 204 ? 'Done; no body' : 'Success'),
      ...(spec.response ? { schema: spec.response } : {}),
      ...(spec.responseContent ? { content: spec.responseContent } : {}),
    }),
  };
  for (const [status, doc] of Object.entries(spec.responses ?? {})) if (doc) responses[status] = responseDoc(converter, doc);
  for (const status of errorStatuses(route)) responses[String(status)] = { $ref: `#/components/responses/${errorResponses[status]!.name}` };
  const body = requestBody(converter, route);
  const params = [...parameters(converter, spec.params, 'path'), ...parameters(converter, spec.query, 'query')];
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    operationId: spec.operationId ?? operationIdOf(spec.method, spec.path),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
    security: isPublic ? [] : [{ bearer: [] }],
    ...(isServiceOperation(spec.method, spec.path) ? {} : { [SANDBOX_EXTENSION]: true }),
  };
}

/** Only the components the paths reach (directly or through other components). */
function reachable(paths: unknown, components: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const seen = new Set<string>();
  const visit = (json: unknown) => {
    for (const [, name] of JSON.stringify(json).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (seen.has(name!) || !components[name!]) continue;
      seen.add(name!);
      visit(components[name!]);
    }
  };
  visit(paths);
  return Object.fromEntries(
    Object.keys(components)
      .filter((name) => seen.has(name))
      .sort()
      .map((name) => [name, components[name]!]),
  );
}

const TAG_DESCRIPTIONS: Record<string, string> = {};

/** "; QR Sandbox also sends qrcode.deleted (its own, x-sandbox) to a webhook that lists it", or nothing. */
function sandboxEventsText(): string {
  const own = eventTypes.filter((type) => !serviceEventTypes.includes(type));
  return own.length === 0 ? '' : `; QR Sandbox also sends ${own.join(', ')} (its own, x-sandbox) to a webhook that lists it`;
}

/** What this server sends to a registered webhook URL: an OpenAPI 3.1 webhook. */
function webhookDelivery(converter: SchemaConverter): JsonSchema {
  const header = (name: string, description: string, schema: JsonSchema) => ({ name, in: 'header', required: true, description, schema });
  const sandboxHeader = (name: string, description: string, schema: JsonSchema) => ({
    ...header(name, `${description}. Only with the webhook's sandbox_diagnostics; the service never sends it`, schema),
    required: false,
    [SANDBOX_EXTENSION]: true,
  });
  return {
    post: {
      tags: ['Webhooks'],
      summary: 'A service confirmation event, delivered to your webhook URL.',
      description:
        `Sent for ${serviceEventTypes.join(', ')} to every active webhook subscribed to the event${sandboxEventsText()}. ` +
        'The body is {"payload": base64(IV + AES-256-CBC ciphertext)}; the AES key is the first 32 characters of the hex HMAC in ' +
        'X-Service-Signature, and the HMAC-SHA256 (keyed with the webhook secret) is over the decrypted plaintext, an EventEnvelope ' +
        '(x-decrypted-payload). Content-Type and X-Service-Signature are the only headers besides those of HTTP itself. ' +
        "Answer 2xx quickly. What follows another answer is this sandbox's choice (x-sandbox): the service's retries, timeout and " +
        'handling of other answers are not documented.',
      operationId: 'serviceConfirmationEvent',
      parameters: [
        header(SIGNATURE_HEADER, 'sha256=<hex HMAC-SHA256 of the plaintext>', { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' }),
        sandboxHeader(SANDBOX_EVENT_HEADER, 'The event type', {
          type: 'string',
          enum: [...eventTypes],
        }),
        sandboxHeader(SANDBOX_DELIVERY_ID_HEADER, 'The same for every attempt of one delivery in this sandbox', { type: 'string' }),
        sandboxHeader(SANDBOX_ATTEMPT_HEADER, '1 for the first attempt', { type: 'integer', minimum: 1 }),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: converter.use(deliveryBodySchema, 'output') } } },
      'x-decrypted-payload': converter.use(envelopeSchema, 'output'),
      responses: {
        '200': { description: 'Any 2xx acknowledges the delivery' },
        default: {
          description:
            'Anything else, or no answer within the timeout (15 s by default, the webhook_timeout_s setting), is retried on the ' +
            "webhook's retry schedule here; redirects are not followed",
          [SANDBOX_EXTENSION]: true,
        },
      },
      security: [],
    },
  };
}

/** The OpenAPI 3.1 document of every registered route, generated from the routes' zod schemas. */
export function openApiDocument(routes: RegisteredRoute[], version: string): JsonSchema {
  const converter = new SchemaConverter();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.spec.path] ??= {};
    paths[route.spec.path]![route.spec.method] = operation(converter, route);
  }
  const webhooks = { serviceConfirmationEvent: webhookDelivery(converter) };
  const errorBody = converter.use(errorBodySchema, 'output');
  const responses = Object.fromEntries(
    Object.values(errorResponses).map(({ name, description }) => [
      name,
      { description, content: { 'application/json': { schema: errorBody } } },
    ]),
  );
  const schemas = converter.finish();
  const tags = [...new Set(routes.map((r) => r.spec.tag))].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `${name} operations.`,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'QR Sandbox API',
      version,
      description:
        'Local sandbox of the QR code address service. Every request needs Authorization: Bearer <api_key>:<api_secret>; ' +
        `every error body is {"error": {"code", "message", "details"?}} (${ERROR_SCHEMA}).`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags,
    security: [{ bearer: [] }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key and its secret joined by a colon: <api_key>:<api_secret>' },
      },
      responses,
      schemas: reachable({ paths, webhooks, responses }, schemas),
    },
  };
}
