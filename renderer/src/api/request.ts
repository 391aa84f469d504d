/** Requests as data, free of browser APIs, so curl rendering can be tested under Node. */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null;

/** One API call, described fully enough to send it or to print it as a curl command. */
export interface ApiRequest {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A multipart/form-data body instead of JSON: text fields and one file (sent with `upload()`). */
  form?: MultipartForm;
  /** A JSON body sent as the bytes of this file (curl shows `--data-binary @name`). */
  jsonFileName?: string;
}

export interface MultipartForm {
  fields: Record<string, string>;
  /** The form field of the file and the file's name (curl shows `-F file=@name`). */
  fileField: string;
  fileName: string;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** The file part of a multipart request, e.g. a File from a picker or a Blob from the desktop bridge. */
export interface UploadFile {
  name: string;
  blob: Blob;
}

export interface Credential {
  apiKey: string;
  apiSecret: string;
}

export function authorizationHeader(c: Credential): string {
  return `Bearer ${c.apiKey}:${c.apiSecret}`;
}

export function requestUrl(request: ApiRequest, origin = ''): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return `${origin}${request.path}${search ? `?${search}` : ''}`;
}
