import { answer, api } from './api-client.ts';
import { type AnswerOf, type CallInit, type Method, type PathWith, typedRequest } from './typed-request.ts';

type WriteMethod = Exclude<Method, 'get'>;

/** A POST, PUT, PATCH or DELETE, typed by the schema: the request it is (for curl) and how to send it. */
export function writeCall<M extends WriteMethod, P extends PathWith<M>>(method: M, path: P, init: CallInit<M, P> = {}) {
  // openapi-fetch cannot check a path it only knows as a type parameter: checked by CallInit instead.
  const send = () => answer(api.request(method, path as never, init as never)) as Promise<AnswerOf<M, P>>;
  return { request: typedRequest(method, path, init), send };
}
