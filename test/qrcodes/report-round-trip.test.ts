import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload } from '../support/imports.ts';
import type { TestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

async function importCsv(server: TestServer, csv: string) {
  const res = await server.request(
    '/api/qrcodes/bulk',
    fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
  );
  assert.equal(res.status, 200);
  return {
    result: (await res.json()) as { inserted: number; excluded: number },
    taskUuid: res.headers.get('x-background-task-uuid') ?? '',
  };
}

describe('error report round trip with formula-like values', () => {
  const server = suiteServer();

  it('neutralises them in the report and reads them back as typed when the fixed report is imported', async () => {
    const first = await importCsv(
      server,
      [
        'location,name,label,address_line_1,suburb,state,postcode,country',
        ',Phone site,+61 8 8900 0000,1 Mitchell St,Darwn,NT,0800,Australia',
        ',Sum site,=1+2,9 Nowhere Rd,Atlantis,ZZ,99999,Australia',
      ].join('\n'),
    );
    assert.equal(first.result.excluded, 1, 'the misspelt Darwin is still found by its postcode; Atlantis is not');
    const report = await (await server.request(`/api/qrcodes/bulk/${first.taskUuid}/errors?format=csv`)).text();
    assert.match(report, /'=1\+2/, 'the report does not hand a formula to a spreadsheet');

    const fixed = report.replace('9 Nowhere Rd,Atlantis,ZZ,99999', '2 Hay St,Perth,WA,6000');
    const second = await importCsv(server, fixed);
    assert.deepEqual([second.result.inserted, second.result.excluded], [1, 0]);
    const list = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=Sum site`);
    const qr = ((await list.json()) as { items: Array<{ label: string | null }> }).items[0];
    assert.equal(qr?.label, '=1+2', 'the label is what the user typed, without the report mark');
  });
});
