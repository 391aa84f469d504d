import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface Points {
  count: number;
  not_located: number;
  uuid: string[];
  latitude: number[];
  longitude: number[];
  precision: (string | null)[];
  state: (string | null)[];
}

describe('GET /api/qrcodes/points (the map)', () => {
  const server = suiteServer(startImportTestServer);
  const points = async (query = ''): Promise<Points> => {
    const res = await server.request(`/api/qrcodes/points?organization_uuid=${server.organizationUuid}${query}`);
    assert.equal(res.status, 200);
    return (await res.json()) as Points;
  };

  it("answers each live QR code's place as columns, and only an import's when given its times", async () => {
    const before = await server.request(
      '/api/qrcodes',
      jsonBody({ organization_uuid: server.organizationUuid, location: '1 Mitchell St, Darwin NT 0800' }),
    );
    const darwin = (await before.json()) as { uuid: string };
    const csv = 'name,location\nA,"1 Main St, Sydney NSW 2000"\nB,"2 Main St, Hobart TAS 7000"\nC,Nowhere at all\n';
    const answer = (await (
      await server.request('/api/qrcodes/bulk', fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid }))
    ).json()) as {
      background_task_uuid: string;
    };
    const task = await waitForTask(server, answer.background_task_uuid);

    const all = await points();
    assert.equal(all.count, 3);
    const darwinAt = all.uuid.indexOf(darwin.uuid);
    assert.deepEqual([all.latitude[darwinAt], all.longitude[darwinAt], all.state[darwinAt]], [-12.4611, 130.8418, 'NT']);
    assert.deepEqual([...all.state].sort(), ['NSW', 'NT', 'TAS']);
    assert.ok(all.precision.every((p) => p === 'postcode'));
    for (const column of [all.latitude, all.longitude, all.precision, all.state]) assert.equal(column.length, all.count);

    const window = `&changed_from=${encodeURIComponent(String(task.created_on))}&changed_to=${encodeURIComponent(String(task.updated_on))}`;
    const imported = await points(window);
    assert.deepEqual([...imported.state].sort(), ['NSW', 'TAS'], 'the QR code created before the import is not among its rows');

    await server.request(`/api/qrcodes/uuid/${darwin.uuid}`, { method: 'DELETE' });
    assert.equal((await points()).count, 2, 'a deleted QR code leaves the map');
  });

  it('names a time it cannot read', async () => {
    const res = await server.request(`/api/qrcodes/points?organization_uuid=${server.organizationUuid}&changed_from=yesterday`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.match(JSON.stringify(body.error.details), /changed_from/);
  });
});
