import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bearer, jsonBody, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';

type Json = Record<string, unknown>;

describe('settings: the data folder', () => {
  let server: TestServer;
  let dataDir: string;

  before(async () => {
    // A relative --data-dir, as `serve --data-dir ./my-data` gives: the answer is the absolute path.
    dataDir = tempDataDir();
    server = await startTestServer({ dataDir: path.relative(process.cwd(), dataDir) });
  });
  after(async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('GET /api/settings names the absolute data folder, for every role', async () => {
    const settings = (await (await server.request('/api/settings')).json()) as Json;
    assert.equal(settings.data_dir, dataDir);
    assert.ok(fs.existsSync(path.join(String(settings.data_dir), 'qr-sandbox.db')), 'the folder that holds the database');

    const viewer = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'reader' }));
    const viewerAuth = bearer((await viewer.json()) as { api_key: string; api_secret: string });
    const asViewer = await server.request('/api/settings', { headers: { authorization: viewerAuth } });
    assert.equal(asViewer.status, 200);
    assert.equal(((await asViewer.json()) as Json).data_dir, dataDir);
  });

  test('PATCH answers with it too and cannot change it', async () => {
    const changed = await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH'));
    assert.equal(changed.status, 200);
    assert.equal(((await changed.json()) as Json).data_dir, dataDir);
    const refused = await server.request('/api/settings', jsonBody({ data_dir: '/tmp/elsewhere' }, 'PATCH'));
    assert.equal(refused.status, 400);
    const body = (await refused.json()) as { error: { code: string } };
    assert.equal(body.error.code, 'VALIDATION_ERROR');
  });
});
