import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { eventually } from '../support/eventually.ts';
import { childPids, commandLine, environment } from '../support/processes.ts';

const MB = 1024 * 1024;
const BOUNDARY = 'upload-warm-boundary';

/** The server's children by role: import workers run with an 8 MB young generation, upload readers with 1 MB. */
function children(server: ChildServer): { workers: number[]; readers: number[] } {
  const pids = childPids(server.child.pid as number);
  const role = (flag: string) => pids.filter((pid) => commandLine(pid).includes(flag));
  return { workers: role('--max-semi-space-size=8'), readers: role('--max-semi-space-size=1') };
}

/** Bounded: a process start on a loaded machine takes seconds. */
const WAIT_MS = 30_000;

/**
 * Starts a background import of a 2 MB file named `fileName` and sends only its first 64 KB: the
 * upload stays open, as a big file's does while it arrives. Returns a function that abandons it.
 */
function startUpload(server: ChildServer, fileName: string): () => void {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="organization_uuid"\r\n\r\n${server.organizationUuid}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const url = new URL('/api/qrcodes/bulk', server.url);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      authorization: server.auth,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(head.length + 2 * MB + tail.length),
    },
  });
  req.on('error', () => undefined);
  req.write(Buffer.concat([head, Buffer.alloc(64 * 1024, 'a')]));
  return () => req.destroy();
}

describe('processes while a big upload arrives', () => {
  let dir: string;
  let server: ChildServer;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-upload-warm-'));
    server = await startChildServer(dir, ['--worker-idle-seconds', '1']);
  });
  after(async () => {
    await server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serve gives freed blocks of 256 KB or more back to the system, in the server and its workers', async () => {
    assert.equal(environment(server.child.pid as number).MALLOC_MMAP_THRESHOLD_, '262144', 'the server process re-started itself with it');
    const abandon = startUpload(server, 'sites.csv');
    try {
      await eventually(
        () => {
          const { workers, readers } = children(server);
          return workers.length > 0 && readers.length > 0;
        },
        'a worker and a reader started for the upload',
        WAIT_MS,
      );
      for (const pid of childPids(server.child.pid as number)) assert.equal(environment(pid).MALLOC_MMAP_THRESHOLD_, '262144');
    } finally {
      abandon();
    }
  });

  it('a CSV starts its import worker as it arrives; a big workbook only its reader (the worker starts after the header read)', async () => {
    await eventually(() => childPids(server.child.pid as number).length === 0, 'the first upload left no process behind', WAIT_MS);
    const abandonCsv = startUpload(server, 'sites.csv');
    try {
      // Both start in the same call as the file part begins: once the reader is there, so is the worker.
      await eventually(() => children(server).readers.length > 0, 'the CSV upload started a reader', WAIT_MS);
      assert.equal(children(server).workers.length, 1, 'the CSV upload started an import worker beside its reader');
    } finally {
      abandonCsv();
    }

    await eventually(() => childPids(server.child.pid as number).length === 0, 'the CSV upload left no process behind', WAIT_MS);
    const abandonWorkbook = startUpload(server, 'Sites.XLSX');
    try {
      await eventually(() => children(server).readers.length > 0, 'the workbook upload started a reader', WAIT_MS);
      assert.deepEqual(children(server).workers, [], 'no import worker beside the reader of a big workbook');
    } finally {
      abandonWorkbook();
    }
  });
});
