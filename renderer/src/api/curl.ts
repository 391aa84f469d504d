import { type ApiRequest, type Credential, requestUrl } from './request.ts';

export const MASKED_SECRET = '<api_secret>';

/** POSIX shell single-quoting: safe for any text. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The curl command that makes the same call, with the secret masked unless revealed. */
export function toCurl(
  request: ApiRequest,
  options: { origin: string; credential: Credential | null; revealSecret: boolean; download?: boolean },
): string {
  const first = ['curl -sS'];
  if (options.download) first.push('-OJ');
  if (request.method !== 'GET') first.push(`-X ${request.method}`);
  first.push(shellQuote(requestUrl(request, options.origin)));
  const parts = [first.join(' ')];
  if (options.credential) {
    const secret = options.revealSecret ? options.credential.apiSecret : MASKED_SECRET;
    parts.push(`-H ${shellQuote(`Authorization: Bearer ${options.credential.apiKey}:${secret}`)}`);
  }
  if (request.form) {
    for (const [name, value] of Object.entries(request.form.fields)) parts.push(`-F ${shellQuote(`${name}=${value}`)}`);
    parts.push(`-F ${shellQuote(`${request.form.fileField}=@${request.form.fileName}`)}`);
  } else if (request.jsonFileName) {
    parts.push(`-H ${shellQuote('Content-Type: application/json')}`);
    parts.push(`--data-binary ${shellQuote(`@${request.jsonFileName}`)}`);
  } else if (request.body !== undefined) {
    parts.push(`-H ${shellQuote('Content-Type: application/json')}`);
    parts.push(`--data ${shellQuote(JSON.stringify(request.body))}`);
  }
  return parts.join(' \\\n  ');
}
