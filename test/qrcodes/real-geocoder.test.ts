import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import type { QrCode } from '../../server/qrcodes/schemas.ts';
import { fileUpload } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

/** The server as users start it: the offline gazetteer, not the tests' tiny geocoder. */
describe('QR codes located by the shipped offline geocoder', () => {
  const server = suiteServer();

  it('locates a created QR code and fills in the place and its time zone', async () => {
    const res = await server.request(
      '/api/qrcodes',
      jsonBody({ organization_uuid: server.organizationUuid, location: '12 Smith St, Fitzroy VIC 3065, Australia' }),
    );
    assert.equal(res.status, 201);
    const qr = (await res.json()) as QrCode;
    assert.equal(qr.suburb?.toUpperCase(), 'FITZROY');
    assert.equal(qr.postcode, '3065');
    assert.equal(qr.timezone_name, 'Australia/Melbourne');
    assert.ok(qr.latitude !== null && Math.abs(qr.latitude + 37.8) < 0.2);
  });

  it('imports a file with addresses from several countries in a worker, excluding the junk row with the spec message', async () => {
    const csv = [
      'location,name,address_line_1,suburb,state,postcode,country',
      ',Darwin depot,1 Mitchell St,Darwin,NT,800,Australia',
      ',Perth office,2 Hay St,Perth,WA,6000,Australia',
      ',Toronto store,,Toronto,ON,M5V,Canada',
      ',Nowhere,asdf,qwerty,ZZ,00000,Atlantis',
    ].join('\r\n');
    const res = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    assert.equal(res.status, 200);
    const result = (await res.json()) as { inserted: number; excluded: number; excluded_data: Array<{ index: number; error: string }> };
    assert.equal(result.inserted, 3);
    assert.equal(result.excluded, 1);
    assert.deepEqual(
      result.excluded_data.map((e) => e.index),
      [3],
    );
    const error = result.excluded_data[0]?.error ?? '';
    assert.ok(error.startsWith(`${ADDRESS_NOT_LOCATED} `), `the spec's sentence first, then why: ${error}`);
    assert.match(error, /Atlantis/, 'the geocoder explains which part it does not know');

    const list = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=depot`);
    const darwin = ((await list.json()) as { items: QrCode[] }).items[0];
    assert.equal(darwin?.postcode, '0800', 'the numeric postcode keeps its leading zero');
    assert.equal(darwin?.timezone_name, 'Australia/Darwin');
  });
});
