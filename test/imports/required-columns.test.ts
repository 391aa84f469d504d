import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * The preview's required and missing columns are the import's own rule, for both kinds: a file the
 * preview says misses nothing is not refused for a missing column, and one it says misses a column
 * is refused naming that column.
 */

interface PreviewColumns {
  required_columns: string[];
  columns: { missing_required: string[] };
}

const VISIT = 'Gate,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",Plumbing,PLB,J-1';

describe('required columns: the preview says what the import refuses', () => {
  const server = suiteServer(startImportTestServer);

  const preview = async (kind: string, csv: string) => {
    const res = await server.request(
      '/api/imports/preview',
      fileUpload(csv, 'rows.csv', { kind, organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as PreviewColumns;
  };
  const importStatus = async (path: string, csv: string) => {
    const res = await server.request(
      `${path}?dry_run=true`,
      fileUpload(csv, 'rows.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    return { status: res.status, text: await res.text() };
  };

  it('appointments: a file without tag_number is missing it in the preview and refused by the import', async () => {
    const csv = ['tag_name,start_date_time,location,service,service_code,job_reference_id', VISIT].join('\n');
    const answer = await preview('appointments', csv);
    assert.deepEqual(answer.required_columns, ['tag_name', 'tag_number', 'start_date_time', 'location', 'service']);
    assert.deepEqual(answer.columns.missing_required, ['tag_number']);
    const refused = await importStatus('/api/appointment_schedule/bulk', csv);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /missing the required column tag_number\./);
  });

  it('appointments: service_code stands in for service, in the preview and the import alike', async () => {
    const csv = [
      'tag_name,tag_number,start_date_time,location,service_code,job_reference_id',
      'Gate,1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",PLB,J-1',
    ].join('\n');
    assert.deepEqual((await preview('appointments', csv)).columns.missing_required, []);
    const accepted = await importStatus('/api/appointment_schedule/bulk', csv);
    assert.equal(accepted.status, 200, accepted.text);

    const neither = csv.replace('service_code', 'notes');
    assert.deepEqual((await preview('appointments', neither)).columns.missing_required, ['service']);
    const refused = await importStatus('/api/appointment_schedule/bulk', neither);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /missing the required column service \(or service_code\)/);
  });

  it('QR codes: suburb, state and postcode without location or a street are refused; a street with a suburb is enough', async () => {
    const parts = ['name,suburb,state,postcode', 'Depot,Carlton,VIC,3053'].join('\n');
    assert.deepEqual((await preview('qrcodes', parts)).columns.missing_required, ['location']);
    const refused = await importStatus('/api/qrcodes/bulk', parts);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /missing the required column location \(or address_line_1 with suburb, or address_line_1 with postcode\)/);

    const street = ['name,address_line_1,suburb,state', 'Depot,1 High Street,Carlton,VIC'].join('\n');
    assert.deepEqual((await preview('qrcodes', street)).columns.missing_required, []);
    assert.equal((await importStatus('/api/qrcodes/bulk', street)).status, 200);
  });
});
