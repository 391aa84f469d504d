/** Requests described from the generated schema: typed paths and parameters, free of browser APIs (testable under Node). */
import type { ApiRequest, HttpMethod, QueryValue } from './request.ts';
import type { paths } from './schema.d.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Every path with this method. */
export type PathWith<M extends Method> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];
type Operation<M extends Method, P extends PathWith<M>> = paths[P][M];
/** The path and query parameters of a call, as openapi-fetch takes them. */
export type ParamsOf<M extends Method, P extends PathWith<M>> =
  Operation<M, P> extends { parameters: infer X } ? Omit<X, 'header' | 'cookie'> : never;
type BodyOf<M extends Method, P extends PathWith<M>> =
  Operation<M, P> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
/** The JSON answer of a call's success status (200, 201 or 202; undefined for 204). */
export type AnswerOf<M extends Method, P extends PathWith<M>> =
  Operation<M, P> extends { responses: infer R }
    ? R extends { 200: infer A } | { 201: infer A } | { 202: infer A }
      ? Json<A>
      : undefined
    : never;

export interface CallInit<M extends Method, P extends PathWith<M>> {
  params?: ParamsOf<M, P>;
  body?: BodyOf<M, P>;
}

/** The request a call sends, as the error notices and "the request as curl" show it. */
export function typedRequest<M extends Method, P extends PathWith<M>>(method: M, path: P, init: CallInit<M, P> = {}): ApiRequest {
  const { path: names = {}, query } = (init.params ?? {}) as { path?: Record<string, string>; query?: Record<string, QueryValue> };
  return {
    method: method.toUpperCase() as HttpMethod,
    path: path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(names[name] ?? '')),
    ...(query ? { query } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
  };
}
