import createClient, { type Middleware } from 'openapi-fetch';
import { failureFrom, getClientCredential, notReached, onUnauthorizedFailure } from './client.ts';
import { type ApiRequest, authorizationHeader, type HttpMethod } from './request.ts';
import type { paths } from './schema.d.ts';

/** Each call as the error notices and "the request as curl" show it, by openapi-fetch's request id. */
const inFlight = new Map<string, ApiRequest>();

async function describe(request: Request): Promise<ApiRequest> {
  const url = new URL(request.url);
  const text = request.body ? await request.clone().text() : '';
  return {
    method: request.method as HttpMethod,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    ...(text ? { body: JSON.parse(text) as unknown } : {}),
  };
}

function settle(id: string): ApiRequest {
  const request = inFlight.get(id) ?? { method: 'GET', path: '' };
  inFlight.delete(id);
  return request;
}

/** Sends the signed-in credential, and turns every answer that is not a success into an ApiFailure. */
const session: Middleware = {
  async onRequest({ request, id }) {
    const credential = getClientCredential();
    if (credential) request.headers.set('authorization', authorizationHeader(credential));
    inFlight.set(id, await describe(request));
    return request;
  },
  async onResponse({ response, id }) {
    const request = settle(id);
    if (response.ok) return undefined;
    const failure = await failureFrom(response, request);
    if (failure.status === 401) onUnauthorizedFailure(failure);
    throw failure;
  },
  onError({ error, id }) {
    const request = settle(id);
    return notReached(error, request);
  },
};

/** The one API client: every path, parameter, body and answer typed by the OpenAPI document. */
export const api = createClient<paths>({ credentials: 'omit', cache: 'no-store', headers: { accept: 'application/json' } });
api.use(session);

/** The answer of a call made with `api`: failures were thrown by the client already. */
export async function answer<T>(call: Promise<{ data?: T }>): Promise<T> {
  return (await call).data as T;
}
