/** One message as JSON, written slice by slice: its body is never one JSON string (1 MB of control bytes escapes to 6 MB). */
import type { ServerResponse } from 'node:http';
import type { Message } from './schemas.ts';

/** A multiple of 3, so each slice's base64 joins the next without padding. */
const SLICE_BYTES = 48 * 1024;

/** Resolves when the socket takes more (or is gone: then `res.destroyed` says so). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function* messageJsonChunks(fields: Omit<Message, 'body' | 'body_base64'>, body: Buffer, utf8: boolean): AsyncGenerator<string> {
  yield '{"body":"';
  const decoder = new TextDecoder('utf-8');
  for (let offset = 0; offset < body.length; offset += SLICE_BYTES) {
    yield JSON.stringify(decoder.decode(body.subarray(offset, offset + SLICE_BYTES), { stream: true })).slice(1, -1);
  }
  yield `${JSON.stringify(decoder.decode()).slice(1, -1)}","body_base64":`;
  if (utf8) yield 'null';
  else {
    yield '"';
    for (let offset = 0; offset < body.length; offset += SLICE_BYTES) yield body.subarray(offset, offset + SLICE_BYTES).toString('base64');
    yield '"';
  }
  yield `,${JSON.stringify(fields).slice(1)}`;
}

export async function writeMessageJson(
  res: ServerResponse,
  fields: Omit<Message, 'body' | 'body_base64'>,
  body: Buffer,
  utf8: boolean,
): Promise<void> {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  for await (const chunk of messageJsonChunks(fields, body, utf8)) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  res.end();
}
