/** A client of the service's HTTP API (the real one or a QR Sandbox), with failures in plain words. */

export const REQUEST_TIMEOUT_MS = 30_000;
/** An upload, and a sync or dry-run answer that comes only when every row is done. */
export const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export class ServiceError extends Error {
  override name = 'ServiceError';
  /** HTTP status, or null when no answer came (network error, timeout). */
  readonly status: number | null;
  /** The answer's body text, when there was an answer. */
  readonly body: string;
  readonly contentType: string;

  constructor(message: string, status: number | null, body = '', contentType = '') {
    super(message);
    this.status = status;
    this.body = body;
    this.contentType = contentType;
  }
}

export interface ServiceConnection {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

export class ServiceClient {
  readonly baseUrl: string;
  private readonly authorization: string;
  private readonly timeoutMs: number;

  constructor(connection: ServiceConnection, timeoutMs = REQUEST_TIMEOUT_MS) {
    this.baseUrl = connection.baseUrl.replace(/\/+$/, '');
    this.authorization = `Bearer ${connection.apiKey}:${connection.apiSecret}`;
    this.timeoutMs = timeoutMs;
  }

  /**
   * The response of a successful (2xx) request; a ServiceError that says what went wrong otherwise.
   * timeoutMs Infinity: no timeout (a stream), only init.signal ends it.
   */
  async request(pathname: string, init: RequestInit = {}, timeoutMs = this.timeoutMs): Promise<Response> {
    const url = `${this.baseUrl}${pathname}`;
    const headers = new Headers(init.headers);
    headers.set('authorization', this.authorization);
    const signals = [init.signal, Number.isFinite(timeoutMs) ? AbortSignal.timeout(timeoutMs) : null].filter(
      (s) => s instanceof AbortSignal,
    );
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.any(signals) });
    } catch (error) {
      throw new ServiceError(describeNetworkError(this.baseUrl, error, timeoutMs), null);
    }
    if (res.ok) return res;
    const body = await res.text().catch(() => '');
    throw new ServiceError(describeFailure(this.baseUrl, res, body), res.status, body, res.headers.get('content-type') ?? '');
  }

  async json<T>(pathname: string, init?: RequestInit, timeoutMs?: number): Promise<T> {
    return (await (await this.request(pathname, init, timeoutMs)).json()) as T;
  }
}

function describeNetworkError(baseUrl: string, error: unknown, timeoutMs: number): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return `${baseUrl} did not answer within ${timeoutMs / 1000} s.`;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return `Could not reach ${baseUrl}: nothing is listening there (connection refused). Is the service running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not reach ${baseUrl}: the host name does not resolve. Check the URL and your network.`;
    case 'ECONNRESET':
      return `${baseUrl} closed the connection before answering.`;
    default:
      return `Could not reach ${baseUrl}: ${cause?.message ?? (error as Error).message}.`;
  }
}

function describeFailure(baseUrl: string, res: Response, text: string): string {
  let detail = '';
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string; detail?: string };
    detail = (typeof body.error === 'object' ? body.error?.message : body.error) ?? body.message ?? body.detail ?? '';
  } catch {
    detail = text.slice(0, 200);
  }
  const suffix = detail ? ` The service said: ${detail}` : '';
  switch (res.status) {
    case 401:
      return `${baseUrl} rejected the API key or secret (401). Check the profile's credential.${suffix}`;
    case 403:
      return `${baseUrl} refused: this API key may not do that, or not for that organization (403).${suffix}`;
    case 404:
      return `${baseUrl} has no such resource (404).${suffix}`;
    case 413:
      return `${baseUrl} refused the upload as too large (413).${suffix}`;
    case 429:
      return `${baseUrl} asks to slow down (429); retry after ${res.headers.get('retry-after') ?? 'a while'} s.${suffix}`;
    default:
      if (res.status >= 300 && res.status < 400)
        return `${baseUrl} redirected to ${res.headers.get('location') ?? 'elsewhere'} (${res.status}); use the final URL in the profile.`;
      if (res.status >= 500) return `${baseUrl} failed with an internal error (${res.status}). Try again later.${suffix}`;
      return `${baseUrl} answered ${res.status}.${suffix}`;
  }
}
