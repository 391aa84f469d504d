import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { logFile } from '../../server/logger.ts';
import { startImportTestServer } from '../support/imports.ts';
import { createInbox, deliver } from '../support/inboxes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const ROWS = 2500;
const GONE = 'the client went away before the answer was complete';

/** Starts a download, hangs up after its first chunk, and answers the status the server sent. */
function downloadAndHangUp(server: TestServer, pathname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${pathname}`, { headers: { authorization: server.auth } }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
  });
}

/** Log lines written since `offset` that say a client hung up on `pathname`, waiting (bounded) for the first. */
async function hangUpLines(server: TestServer, offset: number, pathname: string): Promise<string[]> {
  for (let i = 0; i < 1200; i++) {
    const lines = fs
      .readFileSync(logFile(server.dataDir), 'utf8')
      .slice(offset)
      .split('\n')
      .filter((line) => line.includes(GONE) && line.includes(pathname));
    if (lines.length > 0) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

/** Hangs up on a streamed download after its first chunk and asserts that the server's handler ended because of it. */
async function handlerEndsOnHangUp(server: TestServer, pathname: string, query: string): Promise<void> {
  const offset = fs.statSync(logFile(server.dataDir)).size;
  assert.equal(await downloadAndHangUp(server, `${pathname}?${query}`), 200);
  const lines = await hangUpLines(server, offset, pathname);
  assert.equal(lines.length, 1, 'the handler ended when its client hung up (the error report used to wait for drain forever)');
}

describe('error report download when the client hangs up', () => {
  let server: TestServer;
  let taskUuid: string;
  before(async () => {
    server = await startImportTestServer();
    // Each row is excluded (data is longer than 10,000 characters) and echoed whole in the report:
    // random text, so even the zipped XLSX report is far larger than the socket buffers.
    const lines = ['location,data'];
    for (let i = 0; i < ROWS; i++) lines.push(`Site ${i},${randomBytes(9000).toString('base64')}`);
    const form = new FormData();
    form.set('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'sites.csv');
    form.set('organization_uuid', server.organizationUuid);
    form.set('processing_mode', 'sync');
    const res = await server.request('/api/qrcodes/bulk', { method: 'POST', body: form });
    assert.equal(res.status, 200);
    const result = (await res.json()) as { inserted: number; excluded: number };
    assert.deepEqual([result.inserted, result.excluded], [0, ROWS]);
    taskUuid = res.headers.get('x-background-task-uuid') ?? '';
  });
  after(() => server.stop());

  for (const format of ['csv', 'xlsx'] as const) {
    it(`frees the ${format.toUpperCase()} download at once, and the next download is whole`, async () => {
      const pathname = `/api/qrcodes/bulk/${taskUuid}/errors`;
      await handlerEndsOnHangUp(server, pathname, `format=${format}`);

      const whole = await server.request(`${pathname}?format=${format}`);
      assert.equal(whole.status, 200);
      const body = Buffer.from(await whole.arrayBuffer());
      if (format === 'csv') assert.equal(body.toString('utf8').trimEnd().split('\r\n').length, ROWS + 1);
      else assert.equal(body.subarray(0, 2).toString(), 'PK', 'a zip (xlsx) file');
      assert.ok(body.length > 20 * 1024 * 1024, `the report is ${body.length} bytes`);
    });
  }
});

describe('inbox export when the client hangs up', () => {
  let server: TestServer;
  let inboxUuid: string;
  before(async () => {
    // 24 MB at once is over an inbox's default rate.
    server = await startTestServer({ inboxLimits: { bytesPerMinute: 64 * 1024 * 1024 } });
    const inbox = await createInbox(server);
    inboxUuid = inbox.uuid;
    // 24 messages of 1 MB (the default largest body), random text: the export is far larger than the socket buffers.
    for (let i = 0; i < 24; i++) {
      const sent = await deliver(inbox.url, randomBytes(768 * 1024).toString('base64'), { 'content-type': 'text/plain' });
      assert.ok(sent.messageUuid, `stored (${sent.status}: ${sent.text})`);
    }
  });
  after(() => server.stop());

  it('frees the export at once, and the next export is whole', async () => {
    const pathname = `/api/inboxes/uuid/${inboxUuid}/export`;
    await handlerEndsOnHangUp(server, pathname, `organization_uuid=${server.organizationUuid}`);

    const whole = await server.request(`${pathname}?organization_uuid=${server.organizationUuid}`);
    assert.equal(whole.status, 200);
    const exported = (await whole.json()) as { messages: unknown[] };
    assert.equal(exported.messages.length, 24);
  });
});
