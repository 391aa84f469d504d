import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody, type TestServer } from '../support/server.ts';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';
import { untilUploads, uploadsIn } from '../support/uploads.ts';

function qrCsv(rows: number): string {
  const lines = ['name,location'];
  for (let i = 0; i < rows; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? [];
    lines.push(`Site ${i},"${i} High Street, ${suburb} ${state} ${postcode}"`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Sends the first half of a request whose body is `total` bytes long, waits until the server has
 * started writing the upload, then drops the connection.
 */
async function abortHalfway(server: TestServer, pathname: string, headers: Record<string, string>, head: Buffer, total: number) {
  const req = http.request(`${server.url}${pathname}`, {
    method: 'POST',
    headers: { authorization: server.auth, 'content-length': String(total), ...headers },
  });
  req.on('error', () => {});
  req.on('response', (res) => res.resume());
  req.write(head);
  const filler = Buffer.alloc(64 * 1024, 'x');
  for (let sent = head.length; sent < total / 2; sent += filler.length) {
    if (!req.write(filler)) await new Promise((r) => req.once('drain', r));
  }
  await untilUploads(server.dataDir, 1, 'the upload never reached the disk');
  req.destroy();
}

describe('an upload has one owner: no file is left in the upload folder', () => {
  let server: TestServer;
  const post = (pathname: string, init: RequestInit) => server.request(pathname, init);
  const form = (content: string, name = 'sites.csv', fields: Record<string, string> = {}) =>
    fileUpload(content, name, { organization_uuid: server.organizationUuid, ...fields });

  before(async () => {
    server = await startImportTestServer();
  });
  after(() => server.stop());

  it('after a sync import, as it answers (file and JSON body, both kinds)', async () => {
    const file = await post('/api/qrcodes/bulk?processing_mode=sync', form(qrCsv(3)));
    assert.equal(file.status, 200, await file.clone().text());
    assert.equal(((await file.json()) as { inserted: number }).inserted, 3);
    assert.deepEqual(uploadsIn(server.dataDir), []);

    const csvOnly = await post('/api/qrcodes/bulk-import', form(qrCsv(2)));
    assert.equal(csvOnly.status, 200, await csvOnly.clone().text());
    assert.deepEqual(uploadsIn(server.dataDir), []);

    const json = await post('/api/qrcodes/bulk?processing_mode=sync', jsonBody([{ location: '1 Main Street, Carlton VIC 3053' }]));
    assert.equal(json.status, 200, await json.clone().text());
    assert.deepEqual(uploadsIn(server.dataDir), []);

    const appointments = await post(
      '/api/appointment_schedule/bulk?processing_mode=sync',
      jsonBody([
        { tag_name: 'Gate', tag_number: '1', start_date_time: '2026-03-02 09:00', location: '1 Collins Street, Melbourne VIC 3000' },
      ]),
    );
    assert.equal(appointments.status, 200, await appointments.clone().text());
    assert.deepEqual(uploadsIn(server.dataDir), []);
  });

  it('after a background import, once its task has finished', async () => {
    const res = await post('/api/qrcodes/bulk', form(qrCsv(200)));
    assert.equal(res.status, 202, await res.clone().text());
    const task = await waitForTask(server, ((await res.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    await untilUploads(server.dataDir, 0, 'the finished import kept its upload');
  });

  it('after a dry run', async () => {
    const res = await post('/api/qrcodes/bulk?dry_run=true', form(qrCsv(5)));
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(uploadsIn(server.dataDir), []);
  });

  it('after each validation error, as the 400 is answered', async () => {
    const refused: [string, RequestInit, RegExp][] = [
      ['/api/qrcodes/bulk', form('name,street\r\nSite,1 Main Street\r\n'), /location/],
      ['/api/qrcodes/bulk', form('\u0089PNG\r\n\u001a\n not a table at all', 'picture.png'), /./],
      ['/api/qrcodes/bulk-import', form('[{"location": "1 Main Street"}]', 'sites.json'), /takes CSV files/],
      ['/api/qrcodes/bulk?processing_mode=later', form(qrCsv(1)), /processing_mode must be background or sync/],
      ['/api/qrcodes/bulk?dry_run=maybe', form(qrCsv(1)), /dry_run must be true or false/],
      ['/api/qrcodes/bulk', fileUpload(qrCsv(1), 'sites.csv', {}), /organization_uuid is required/],
      ['/api/appointment_schedule/bulk', form('tag_name,location\r\nGate,1 Main Street\r\n'), /missing the required columns/],
      ['/api/appointment_schedule/bulk', form(qrCsv(1), 'sites.csv', { org_identifier: 'no-such-handler' }), /no-such-handler/],
    ];
    for (const [pathname, init, message] of refused) {
      const res = await post(pathname, init);
      const body = await res.text();
      assert.equal(res.status, 400, `${pathname}: ${body}`);
      assert.match(body, message);
      assert.deepEqual(uploadsIn(server.dataDir), [], `${pathname} left its upload (${body})`);
    }
  });

  it('after a client aborts mid-upload (multipart file and JSON body)', async () => {
    const boundary = 'lease-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="organization_uuid"\r\n\r\n${server.organizationUuid}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nname,location\r\n`,
    );
    const total = 8 * 1024 * 1024;
    await abortHalfway(server, '/api/qrcodes/bulk', { 'content-type': `multipart/form-data; boundary=${boundary}` }, head, total);
    await untilUploads(server.dataDir, 0, 'the aborted multipart upload was kept');

    await abortHalfway(server, '/api/qrcodes/bulk', { 'content-type': 'application/json' }, Buffer.from('[{"location": "'), total);
    await untilUploads(server.dataDir, 0, 'the aborted JSON body was kept');
    assert.equal((await server.request('/api/health')).status, 200);
  });
});
