import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ imports: { syncRowCap: 250 } });
});
after(() => server.stop());

it('GET /api/meta names the import kinds, the limits and the appointment fields of this server', async () => {
  const response = await server.request('/api/meta');
  assert.equal(response.status, 200);
  const meta = (await response.json()) as Record<string, unknown>;
  assert.deepEqual(meta.import_kinds, ['qrcodes', 'appointments']);
  assert.equal(meta.sync_row_cap, 250);
  assert.equal(typeof meta.max_upload_bytes, 'number');
  assert.deepEqual((meta.appointment_fields as string[]).slice(0, 2), ['tag_name', 'tag_number']);
});

it('GET /api/meta needs a credential', async () => {
  const response = await server.request('/api/meta', { headers: { authorization: '' } });
  assert.equal(response.status, 401);
});
