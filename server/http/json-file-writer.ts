import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { PRIVATE_FILE_MODE } from '../data-dir/private-files.ts';

/** What the server needs to send a JSON answer from its file (json-file.ts). */
export interface WrittenJson {
  file: string;
  bytes: number;
  /** The weak ETag express's res.json gives this body (for the routes that answer with it). */
  etag: string;
}

/**
 * Writes `value` as the JSON text the server would send (JSON.stringify, as res.json does) to
 * `file`, when it is `minBytes` or more: in an import worker or upload reader, so that a big answer
 * is serialised off the server's thread and streamed from the file (40 MB of JSON took the server
 * 300 ms of one block to receive and serialise). A smaller answer, or one that could not be
 * written (a full disk), is left to pass as it is: undefined, and no file.
 */
export async function writeJsonFile(value: unknown, file: string, minBytes: number): Promise<WrittenJson | undefined> {
  const text = JSON.stringify(value) ?? '';
  if (text.length < minBytes) return undefined;
  const body = Buffer.from(text);
  try {
    await fs.promises.writeFile(file, body, { mode: PRIVATE_FILE_MODE });
  } catch {
    await fs.promises.rm(file, { force: true }).catch(() => undefined);
    return undefined;
  }
  return { file, bytes: body.length, etag: weakEtag(body) };
}

/** express's ETag of a body (its `etag` package, weak): the length in hex and the start of the SHA-1 in base64. */
function weakEtag(body: Buffer): string {
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}
