import type { ErrorBody, ErrorCode, FieldProblem } from './types.ts';
import { type ApiRequest, authorizationHeader, type Credential, requestUrl } from './request.ts';

export { authorizationHeader, requestUrl };
export type { ApiRequest, Credential } from './request.ts';

/** An API call that did not succeed, with what the server said (docs/api.md "Errors"). */
export class ApiFailure extends Error {
  readonly status: number;
  /** null when the server could not be reached or did not answer with the error contract. */
  readonly code: ErrorCode | null;
  readonly details: FieldProblem[];
  readonly request: ApiRequest;
  readonly retryAfterSeconds: number | null;
  /** The answer's headers (e.g. X-Remote-Status of the remote proxy); null when there was no answer. */
  readonly headers: Headers | null;

  constructor(init: {
    message: string;
    status: number;
    code: ErrorCode | null;
    details?: FieldProblem[];
    request: ApiRequest;
    retryAfterSeconds?: number | null;
    headers?: Headers | null;
  }) {
    super(init.message);
    this.name = 'ApiFailure';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.request = init.request;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.headers = init.headers ?? null;
  }
}

let credential: Credential | null = null;
const unauthorizedListeners = new Set<(failure: ApiFailure) => void>();

export function setClientCredential(next: Credential | null): void {
  credential = next;
}

export function getClientCredential(): Credential | null {
  return credential;
}

/** Tells the sign-in form that the server refused the credential (for requests sent without `send`). */
export function onUnauthorizedFailure(failure: ApiFailure): void {
  for (const listener of unauthorizedListeners) listener(failure);
}

/** The failure of a call the server did not answer. */
export function unreachable(request: ApiRequest): ApiFailure {
  return new ApiFailure({
    message: 'Could not reach the QR Sandbox server. Check that it is still running, then try again.',
    status: 0,
    code: null,
    request,
  });
}

/** What a fetch that threw `error` fails with: an abort stays the abort it is. */
export function notReached(error: unknown, request: ApiRequest): Error {
  return error instanceof DOMException && error.name === 'AbortError' ? error : unreachable(request);
}

/** Called when the server refuses the credential (401), so the sign-in form can come back. */
export function onUnauthorized(listener: (failure: ApiFailure) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}

export async function failureFrom(response: Response, request: ApiRequest): Promise<ApiFailure> {
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not the error contract: described by its status below.
  }
  if (isErrorBody(body)) {
    return new ApiFailure({
      message: body.error.message,
      status: response.status,
      code: body.error.code,
      details: body.error.details ?? [],
      request,
      retryAfterSeconds,
      headers: response.headers,
    });
  }
  return new ApiFailure({
    message: `The server answered ${response.status} ${response.statusText || ''} without an explanation.`.replace('  ', ' '),
    status: response.status,
    code: null,
    request,
    retryAfterSeconds,
    headers: response.headers,
  });
}

/** Sends the request. Resolves to the response (for downloads) or throws an ApiFailure. */
export async function send(
  request: ApiRequest,
  init: {
    signal?: AbortSignal;
    accept?: string /** A JSON document's bytes as they are (e.g. a file), instead of request.body. */;
    jsonFile?: Blob;
  } = {},
): Promise<Response> {
  const headers = new Headers({ accept: init.accept ?? 'application/json' });
  if (credential) headers.set('authorization', authorizationHeader(credential));
  if (request.body !== undefined || init.jsonFile) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(requestUrl(request), {
      method: request.method,
      headers,
      body: init.jsonFile ?? (request.body === undefined ? null : JSON.stringify(request.body)),
      credentials: 'omit',
      cache: 'no-store',
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    throw notReached(error, request);
  }
  if (!response.ok) {
    const failure = await failureFrom(response, request);
    if (failure.status === 401) onUnauthorizedFailure(failure);
    throw failure;
  }
  return response;
}

/** Sends the request and reads the JSON answer; 204 gives undefined. */
export async function call<T>(request: ApiRequest, init: { signal?: AbortSignal } = {}): Promise<T> {
  const response = await send(request, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Downloads an attachment answer and hands it to the browser as a file. */
export async function download(request: ApiRequest, fallbackName: string): Promise<string> {
  const response = await send(request, { accept: '*/*' });
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = decodeURIComponent(name);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return link.download;
}
