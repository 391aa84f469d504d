import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface PreviewRow {
  index: number;
  problems: string[];
  notes: string[];
}

/** index -> error of the rows an answer excludes. */
type Excluded = Map<number, string>;

/**
 * The preview runs the import's own checks (the shipped offline geocoder, the service catalog,
 * tags, time zones) on the rows it shows: what it says will be excluded is what the import
 * excludes, with the same words.
 */
describe('the import preview agrees with the import on every row', () => {
  const server = suiteServer();

  const preview = async (csv: string, kind: string): Promise<{ rows: PreviewRow[]; excluded: Excluded }> => {
    const res = await server.request(
      '/api/imports/preview',
      fileUpload(csv, `${kind}.csv`, { kind, organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const rows = ((await res.json()) as { rows: PreviewRow[] }).rows;
    return { rows, excluded: new Map(rows.filter((r) => r.problems.length > 0).map((r) => [r.index, r.problems.join(' ')])) };
  };

  it('QR codes: a place in several states, an unknown place, a bad type and a tag used twice', async () => {
    const csv = [
      'location,name,suburb,state,postcode,country,type,tag_name,tag_number',
      ',Darwin depot,Darwin,NT,0800,Australia,SITE,,',
      ',Richmond shop,Richmond,,,Australia,SITE,,',
      ',Nowhere,Nowhere Land,,99999,Australia,SITE,,',
      ',Perth office,Perth,WA,6000,Australia,bad type!,,',
      ',Fitzroy gate,Fitzroy,VIC,3065,Australia,SITE,Gate,1',
      ',Carlton gate,Carlton,VIC,3053,Australia,SITE,Gate,1',
    ].join('\r\n');
    const before = await preview(csv, 'qrcodes');
    assert.deepEqual([...before.excluded.keys()], [1, 2, 3, 5]);
    const richmond = before.excluded.get(1) ?? '';
    assert.ok(richmond.startsWith(`${ADDRESS_NOT_LOCATED} `), richmond);
    assert.match(richmond, /"Richmond" is a place in several states .*: add the state/);
    assert.match(before.excluded.get(5) ?? '', /tag Gate 1 already belongs to another QR code/);

    const res = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(csv, 'qrcodes.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    assert.equal(res.status, 200);
    const imported = (await res.json()) as { inserted: number; excluded_data: { index: number; error: string }[] };
    assert.deepEqual(new Map(imported.excluded_data.map((e) => [e.index, e.error])), before.excluded);
    assert.equal(imported.inserted, 2);

    const list = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=gate`);
    assert.equal(
      ((await list.json()) as { items: unknown[] }).items.length,
      1,
      'the preview kept nothing: only the import wrote the first gate',
    );
  });

  it('appointments: a service missing from the catalog, an address that cannot be located and a misspelt zone', async () => {
    const created = await server.request(
      '/api/services',
      jsonBody({ organization_uuid: server.organizationUuid, name: 'Window cleaning', code: 'WIN' }),
    );
    assert.equal(created.status, 201, await created.clone().text());
    const csv = [
      'tag_name,tag_number,start_date_time,location,duration,service,timezone_name',
      'Site,A-1,2026-03-02 09:00,"1 Mitchell St, Darwin NT 0800, Australia",60,Window cleaning,',
      'Site,A-2,2026-03-02 10:00,"1 Mitchell St, Darwin NT 0800, Australia",60,Carpet shampoo,',
      'Site,A-3,2026-03-02 11:00,"99 Nowhere Land 99999",60,Window cleaning,',
      'Site,A-4,2026-03-02 12:00,"1 Mitchell St, Darwin NT 0800, Australia",60,Window cleaning,Melbourne',
    ].join('\r\n');
    const before = await preview(csv, 'appointments');
    assert.deepEqual([...before.excluded.keys()], [1, 2, 3]);
    assert.match(before.excluded.get(1) ?? '', /service "Carpet shampoo" is not in this organization's service catalog/);
    assert.ok((before.excluded.get(2) ?? '').startsWith(`${ADDRESS_NOT_LOCATED} `), before.excluded.get(2));
    assert.match(before.excluded.get(3) ?? '', /Did you mean Australia\/Melbourne\?/);

    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(csv, 'appointments.csv', { organization_uuid: server.organizationUuid, processing_mode: 'background' }),
    );
    assert.equal(res.status, 202, await res.clone().text());
    const { background_task_uuid: uuid } = (await res.json()) as { background_task_uuid: string };
    const task = (await waitForTask(server, uuid)) as unknown as {
      status: string;
      results: { upserted: number; excluded_appointments: { index: number; error_message: string }[] };
    };
    assert.equal(task?.status, 'COMPLETED');
    assert.deepEqual(new Map(task?.results.excluded_appointments.map((e) => [e.index, e.error_message])), before.excluded);
    assert.equal(task?.results.upserted, 1);
  });
});
