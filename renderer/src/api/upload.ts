import type { UploadFile, UploadProgress } from './request.ts';
import {
  type ApiRequest,
  ApiFailure,
  unreachable,
  authorizationHeader,
  failureFrom,
  getClientCredential,
  onUnauthorizedFailure,
  requestUrl,
} from './client.ts';

/**
 * Sends a multipart request (`request.form` names its fields and file) and reads the JSON
 * answer. XMLHttpRequest rather than fetch: only it reports upload progress in every browser.
 */
export function upload<T>(
  request: ApiRequest,
  file: UploadFile,
  init: { onProgress?(progress: UploadProgress): void; signal?: AbortSignal } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(request.form?.fields ?? {})) form.set(name, value);
  form.set(request.form?.fileField ?? 'file', file.blob, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, requestUrl(request));
    xhr.setRequestHeader('accept', 'application/json');
    const credential = getClientCredential();
    if (credential) xhr.setRequestHeader('authorization', authorizationHeader(credential));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) init.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    init.signal?.addEventListener('abort', () => xhr.abort());
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    xhr.onerror = () => reject(unreachable(request));
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
        headers,
      });
      if (xhr.status >= 200 && xhr.status < 300) {
        response.json().then(
          (body: unknown) => resolve({ status: xhr.status, body: body as T, headers }),
          () =>
            reject(
              new ApiFailure({
                message: `The server answered ${xhr.status} with a body that is not JSON.`,
                status: xhr.status,
                code: null,
                request,
              }),
            ),
        );
        return;
      }
      void failureFrom(response, request).then((failure) => {
        if (failure.status === 401) onUnauthorizedFailure(failure);
        reject(failure);
      });
    };
    xhr.send(form);
  });
}
