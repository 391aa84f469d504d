import { z } from 'zod';
import type { RegisteredRoute } from './api.ts';
import { errorBodySchema } from './errors.ts';

type JsonSchema = Record<string, unknown>;

const errorDescriptions: Record<number, string> = {
  400: 'Invalid input (VALIDATION_ERROR, with details naming each field)',
  401: 'Missing, malformed or wrong credential',
  403: 'The key lacks the role, or acts on another organization',
  404: 'Not found, or not visible to this key',
  409: 'Conflicts with the current state',
  413: 'Body or upload too large',
  415: 'Wrong Content-Type',
  429: 'Too many failed attempts; see Retry-After',
  500: 'Unexpected error (details only in the server log)',
  502: 'A remote service could not be reached or refused the credential',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  return rest;
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: location,
    required: location === 'path' || !field.safeParse(undefined).success,
    ...(field.description ? { description: field.description } : {}),
    schema: jsonSchema(field, 'input'),
  }));
}

function operation({ spec, isPublic }: RegisteredRoute): JsonSchema {
  const success = String(spec.status ?? 200);
  const content: Record<string, unknown> = {};
  if (spec.response) content['application/json'] = { schema: jsonSchema(spec.response, 'output') };
  for (const [type, description] of Object.entries(spec.responseContent ?? {})) content[type] = { schema: { type: 'string', description } };
  const responses: Record<string, unknown> = {
    [success]: { description: 'Success', ...(Object.keys(content).length ? { content } : {}) },
  };
  const statuses = new Set<number>([400, 500, ...(isPublic ? [] : [401, 403, 429]), ...(spec.errors ?? [])]);
  if (spec.body) for (const s of [413, 415]) statuses.add(s);
  if (spec.params) statuses.add(404);
  for (const status of [...statuses].sort()) {
    responses[String(status)] = {
      description: errorDescriptions[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const requestBody = spec.requestBody
    ? spec.requestBody
    : spec.body
      ? { required: true, content: { 'application/json': { schema: jsonSchema(spec.body, 'input') } } }
      : undefined;
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    operationId: `${spec.method}${spec.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    parameters: [...parameters(spec.params, 'path'), ...parameters(spec.query, 'query')],
    ...(requestBody ? { requestBody } : {}),
    responses,
    security: isPublic ? [] : [{ bearer: [] }],
  };
}

/** The OpenAPI 3.1 document of every registered route, generated from the routes' zod schemas. */
export function openApiDocument(routes: RegisteredRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.spec.path] ??= {};
    paths[route.spec.path]![route.spec.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'QR Sandbox API',
      version,
      description:
        'Local sandbox of the QR code address service. Every request needs Authorization: Bearer <api_key>:<api_secret>; ' +
        'every error body is {"error": {"code", "message", "details"?}}.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key and its secret joined by a colon: <api_key>:<api_secret>' },
      },
      schemas: { Error: jsonSchema(errorBodySchema, 'output') },
    },
    paths,
  };
}
