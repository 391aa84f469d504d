/**
 * Whether a request body asks for a dry run: a multipart part named `dry_run`, or a `dry_run` key
 * of a JSON object body. Read from a file, a chunk at a time, so a body as large as the upload
 * limit costs a few KB of memory.
 */
import fs from 'node:fs';

export const DRY_RUN_FIELD = 'dry_run';

/** Longest part header block looked at; browsers and curl write a few hundred bytes. */
const PART_HEADERS_BYTES = 8 * 1024;
/** Longest JSON key kept for comparison; longer keys cannot be `dry_run`. */
const KEY_CHARS = 64;

function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function partName(headers: string): string | undefined {
  const disposition = headers.split('\r\n').find((line) => /^content-disposition\s*:/i.test(line));
  return disposition ? /;\s*name="([^"]*)"/i.exec(disposition)?.[1] : undefined;
}

/** The names of a multipart body's parts, in order (scanned for `--boundary` lines and the headers after them). */
async function* multipartNames(file: string, boundary: string): AsyncGenerator<string> {
  const delimiter = Buffer.from(`--${boundary}\r\n`);
  // A delimiter starts the body or follows a CRLF: prefixing one finds the first like the others.
  let carry = Buffer.from('\r\n');
  for await (const chunk of fs.createReadStream(file)) {
    let buffer = Buffer.concat([carry, chunk as Buffer]);
    let at = buffer.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]));
    let keepFrom = Math.max(0, buffer.length - delimiter.length - 2);
    while (at !== -1) {
      const headersStart = at + 2 + delimiter.length;
      const headersEnd = buffer.indexOf('\r\n\r\n', headersStart);
      if (headersEnd === -1 && buffer.length - headersStart < PART_HEADERS_BYTES) {
        keepFrom = at;
        break;
      }
      const name = partName(
        buffer.subarray(headersStart, headersEnd === -1 ? headersStart + PART_HEADERS_BYTES : headersEnd).toString('latin1'),
      );
      if (name !== undefined) yield name;
      at = buffer.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersStart);
    }
    buffer = buffer.subarray(keepFrom);
    carry = Buffer.from(buffer);
  }
}

/** The keys of a JSON object body's top level, decoded (escapes included); none when the body is not an object. */
async function* topLevelJsonKeys(file: string): AsyncGenerator<string> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let text = '';
  let stringAtTop = false;
  let lastTopString: string | undefined;
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8' })) {
    for (const char of chunk as string) {
      if (inString) {
        if (stringAtTop && text.length <= KEY_CHARS * 6) text += char;
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') {
          inString = false;
          if (stringAtTop) lastTopString = text;
        }
        continue;
      }
      if (char === '"') {
        inString = true;
        stringAtTop = depth === 1;
        text = '"';
      } else if (char === ':' && depth === 1 && lastTopString !== undefined) {
        try {
          yield JSON.parse(lastTopString) as string;
        } catch {
          // A key cut at KEY_CHARS is longer than any name looked for.
        }
        lastTopString = undefined;
      } else if (char === '{' || char === '[') {
        depth += 1;
        lastTopString = undefined;
      } else if (char === '}' || char === ']') {
        depth -= 1;
      } else if (char === ',') {
        lastTopString = undefined;
      }
    }
  }
}

/** Whether the body in `file`, sent with `contentType`, carries a `dry_run` field. */
export async function bodyAsksDryRun(file: string, contentType: string): Promise<boolean> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const boundary = boundaryOf(contentType);
  const names =
    type === 'multipart/form-data' && boundary ? multipartNames(file, boundary) : /[/+]json$/.test(type) ? topLevelJsonKeys(file) : null;
  if (!names) return false;
  for await (const name of names) if (name === DRY_RUN_FIELD) return true;
  return false;
}
