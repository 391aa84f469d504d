import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { importKindIds } from '../../server/imports/kinds.ts';
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
  assert.deepEqual(meta.import_kinds, [...importKindIds]);
  assert.equal(meta.sync_row_cap, 250);
  assert.equal(typeof meta.max_upload_bytes, 'number');
  assert.deepEqual((meta.appointment_fields as string[]).slice(0, 2), ['tag_name', 'tag_number']);
});

it('GET /api/meta needs a credential', async () => {
  const response = await server.request('/api/meta', { headers: { authorization: '' } });
  assert.equal(response.status, 401);
});

it('GET /api/meta describes each import kind by what its endpoints really do', async () => {
  const meta = (await (await server.request('/api/meta')).json()) as {
    kinds: {
      id: string;
      template_path: string;
      template_file_name: string;
      columns: string[];
      column_labels: Record<string, string>;
      upload_path: string;
      task_types: string[];
    }[];
  };
  assert.deepEqual(
    meta.kinds.map((kind) => kind.id),
    [...importKindIds],
  );
  for (const kind of meta.kinds) {
    const template = await server.request(kind.template_path);
    assert.equal(template.status, 200, kind.template_path);
    assert.match(template.headers.get('content-disposition') ?? '', new RegExp(kind.template_file_name.replace('.', '\\.')));
    const header = (await template.text())
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0]
      ?.split(',');
    assert.deepEqual(header, kind.columns, `${kind.id}: the template's header is the kind's columns`);
    assert.deepEqual(Object.keys(kind.column_labels).sort(), [...kind.columns].sort(), `${kind.id}: every column has a label`);
    const empty = await server.request(kind.upload_path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    assert.notEqual(empty.status, 404, `${kind.upload_path} exists`);
  }
  assert.deepEqual(meta.kinds.find((kind) => kind.id === 'qrcodes')?.task_types, ['IMPORT', 'QR_IMPORT']);
});
