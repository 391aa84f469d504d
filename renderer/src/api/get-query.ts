import { queryOptions } from '@tanstack/react-query';
import { answer, api } from './api-client.ts';
import type { QueryValue } from './request.ts';
import { type AnswerOf, type ParamsOf, type PathWith, typedRequest } from './typed-request.ts';

/** Every path with a GET. */
export type GetPath = PathWith<'get'>;
/** A GET's path and query parameters, as openapi-fetch takes them. */
export type GetParams<P extends GetPath> = ParamsOf<'get', P>;
/** A GET's JSON answer. */
export type GetAnswer<P extends GetPath> = AnswerOf<'get', P>;

/** The request a GET sends, as the error notices and "the request as curl" show it. */
export const getRequest = <P extends GetPath>(path: P, params: GetParams<P>) => typedRequest('get', path, { params });

/**
 * A GET as a query, keyed [path, params]: invalidating [path] reaches every page and filter of it.
 * Empty query values are left out, as the address bar's filters leave them.
 */
export function getQuery<P extends GetPath>(path: P, params: GetParams<P>) {
  return queryOptions({
    queryKey: [path, params] as const,
    queryFn: ({ signal }) => {
      const { path: names, query } = params as { path?: Record<string, string>; query?: Record<string, QueryValue> };
      const sent = Object.fromEntries(Object.entries(query ?? {}).filter(([, value]) => value !== '' && value != null));
      // openapi-fetch cannot check a path it only knows as a type parameter: checked by GetParams instead.
      const call = api.GET(path as '/api/meta', { params: { path: names, query: sent } as object, signal });
      return answer<GetAnswer<P>>(call as never);
    },
  });
}
