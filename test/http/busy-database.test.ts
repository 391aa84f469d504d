/**
 * A write that waited SERVER_WRITE_WAIT_MS for SQLite's write lock and still found it taken (an
 * import's batch stalled, e.g. by a slow online geocoder) is a 503 with Retry-After, not a 500.
 * The wait itself is a minute, so the error is raised by a route here; the real lock and wait are
 * db/database.ts's waitingForLock, whose SQLITE_BUSY this is.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { after, before, it } from 'node:test';
import SQLite from 'better-sqlite3';
import express from 'express';
import pino from 'pino';
import { DiskSpace } from '../../server/data-dir/disk-space.ts';
import { errorHandler } from '../../server/http/error-handler.ts';

let server: http.Server;
let url: string;
before(async () => {
  const app = express();
  app.post('/write', () => {
    // A real SQLITE_BUSY: a second connection that cannot take the lock the first one holds.
    const file = `${os.tmpdir()}/qr-busy-${process.pid}.db`;
    const holder = new SQLite(file);
    const writer = new SQLite(file, { timeout: 0 });
    try {
      holder.exec('create table if not exists t (x); begin immediate');
      writer.exec('begin immediate');
    } finally {
      holder.close();
      writer.close();
    }
  });
  app.use(errorHandler(pino({ level: 'silent' }), new DiskSpace(os.tmpdir())));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

it('answers a write the busy database refused with 503 SERVICE_UNAVAILABLE and Retry-After', async () => {
  const res = await fetch(`${url}/write`, { method: 'POST' });
  assert.equal(res.status, 503);
  assert.equal(res.headers.get('retry-after'), '5');
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
  assert.match(body.error.message, /nothing was changed\. Try again in a moment\./);
});
