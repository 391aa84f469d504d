import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { WrittenJson } from './json-file-writer.ts';

/**
 * An answer serialised by a worker process into a file (json-file-writer.ts): a route may return
 * one instead of an object, and it is streamed to the client and then removed. Whoever holds one
 * sends it or discards it.
 */
export class JsonFile {
  readonly file: string;
  readonly bytes: number;
  readonly etag: string;
  constructor(written: WrittenJson) {
    this.file = written.file;
    this.bytes = written.bytes;
    this.etag = written.etag;
  }

  discard(): Promise<void> {
    return fs.promises.rm(this.file, { force: true }).catch(() => undefined);
  }
}

/**
 * Sends the file as res.json would send its JSON (the same status, Content-Type, Content-Length
 * and, where the route answers with res.json, ETag), a chunk at a time as the client takes it, so
 * that no step holds the server's thread for long. Settles once the answer is sent or the client
 * has gone (the connection is then closed); the file is removed either way. Rejects, before
 * anything is sent, only when the file cannot be opened.
 */
export async function sendJsonFile(res: ServerResponse, status: number, answer: JsonFile, options: { etag: boolean }): Promise<void> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(answer.file);
  } catch (error) {
    // Gone before it was sent (the data folder cleaned?): the route's error answer says why.
    await answer.discard();
    throw error;
  }
  try {
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', answer.bytes);
    if (options.etag) res.setHeader('ETag', answer.etag);
    await pipeline(handle.createReadStream(), res);
  } catch {
    // The client went away, or the file could not be read: the answer cannot be whole, so the connection ends.
    res.destroy();
  } finally {
    await answer.discard();
  }
}
