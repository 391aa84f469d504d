import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { startImportTestServer } from '../support/imports.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface QrCodeBody {
  uuid: string;
  name: string;
  type: string;
  location: string;
  suburb: string | null;
  state: string | null;
  postcode: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone_name: string | null;
  external_reference_id: string | null;
  tags: { tag_name: string; tag_number: string; tag_display_name: string }[];
}

describe('QR code addresses', () => {
  const server = suiteServer(startImportTestServer);

  const create = (body: Record<string, unknown>) =>
    server.request('/api/qrcodes', jsonBody({ organization_uuid: server.organizationUuid, ...body }));

  it('creates a located record from a location alone, with defaults', async () => {
    const res = await create({ location: '10 Collins Street, Melbourne VIC 3000', tags: [{ tag_name: 'Door', tag_number: '7' }] });
    assert.equal(res.status, 201);
    const qr = (await res.json()) as QrCodeBody;
    assert.equal(qr.type, 'SITE');
    assert.equal(qr.name, '10 Collins Street, Melbourne VIC 3000');
    assert.equal(qr.suburb, 'Melbourne');
    assert.equal(qr.postcode, '3000');
    assert.equal(qr.timezone_name, 'Australia/Melbourne');
    assert.equal(qr.latitude, -37.813);
    assert.deepEqual(
      qr.tags.map((t) => [t.tag_name, t.tag_number, t.tag_display_name]),
      [['Door', '7', 'Door 7']],
    );

    const got = await server.request(`/api/qrcodes/uuid/${qr.uuid}`);
    assert.equal(got.status, 200);
    assert.deepEqual(await got.json(), qr);
  });

  it('refuses an address it cannot locate, a missing location and a duplicate reference', async () => {
    const lost = await create({ location: 'Middle of nowhere' });
    assert.equal(lost.status, 400);
    assert.equal(((await lost.json()) as { error: { message: string } }).error.message, ADDRESS_NOT_LOCATED);

    const missing = await create({ name: 'x' });
    assert.equal(missing.status, 400);
    assert.match(((await missing.json()) as { error: { message: string } }).error.message, /location/);

    assert.equal((await create({ location: '1 George St, Sydney NSW 2000', external_reference_id: 'DUP-1' })).status, 201);
    const duplicate = await create({ location: '2 George St, Sydney NSW 2000', external_reference_id: 'DUP-1' });
    assert.equal(duplicate.status, 409);
  });

  it('lists with search, type and reference filters, in the page shape', async () => {
    await create({ location: '3 Beach Road, Bondi NSW 2026', name: 'Bondi Kiosk', type: 'kiosk', external_reference_id: 'K-1' });
    const page = async (query: string) => {
      const res = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&${query}`);
      assert.equal(res.status, 200);
      return (await res.json()) as { items: QrCodeBody[]; total: number; pages: number; page: number; per_page: number };
    };
    const search = await page('search=bondi%20KIOSK');
    assert.deepEqual(
      search.items.map((q) => q.name),
      ['Bondi Kiosk'],
    );
    assert.equal((await page('type=KIOSK')).total, 1);
    assert.equal((await page('external_reference_id=K-1')).items[0]?.name, 'Bondi Kiosk');
    const none = await page('search=%25');
    assert.equal(none.total, 0, '% is matched literally');
    assert.equal(none.pages, 0);
    const paged = await page('per_page=1&page=2');
    assert.equal(paged.items.length, 1);
    assert.equal(paged.per_page, 1);
    assert.ok(paged.pages >= 3);
  });

  it('updates fields, locates a changed address again, and soft-deletes', async () => {
    const qr = (await (await create({ location: '1 Station St, Geelong VIC 3220', name: 'Geelong' })).json()) as QrCodeBody;
    const patched = await server.request(
      `/api/qrcodes/uuid/${qr.uuid}`,
      jsonBody({ name: 'Geelong West', location: '4 Hay St, Subiaco WA 6008' }, 'PATCH'),
    );
    assert.equal(patched.status, 200);
    const body = (await patched.json()) as QrCodeBody;
    assert.equal(body.name, 'Geelong West');
    assert.equal(body.suburb, 'Subiaco');
    assert.equal(body.timezone_name, 'Australia/Perth');

    const bad = await server.request(`/api/qrcodes/uuid/${qr.uuid}`, jsonBody({ location: 'Nowhere at all' }, 'PATCH'));
    assert.equal(bad.status, 400);

    assert.equal((await server.request(`/api/qrcodes/uuid/${qr.uuid}`, { method: 'DELETE' })).status, 204);
    assert.equal((await server.request(`/api/qrcodes/uuid/${qr.uuid}`)).status, 404);
    assert.equal((await server.request(`/api/qrcodes/uuid/${qr.uuid}`, { method: 'DELETE' })).status, 404);
    const list = (await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=Geelong`)).json()) as {
      total: number;
    };
    assert.equal(list.total, 0);
  });

  it('keeps organizations apart: 403 for another organization, 404 for its records', async () => {
    const res = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'viewer' }));
    const viewer = (await res.json()) as { api_key: string; api_secret: string };
    const asViewer = { authorization: bearer(viewer) };
    const write = await server.request('/api/qrcodes', {
      ...jsonBody({ organization_uuid: server.organizationUuid, location: '1 Smith St, Carlton VIC 3053' }),
      headers: { ...asViewer, 'content-type': 'application/json' },
    });
    assert.equal(write.status, 403);
    const other = await create({ organization_uuid: '00000000-0000-0000-0000-000000000000', location: '1 Smith St, Carlton VIC 3053' });
    assert.equal(other.status, 403);
    assert.equal((await server.request('/api/qrcodes?organization_uuid=00000000-0000-0000-0000-000000000000')).status, 403);
    assert.equal((await server.request('/api/qrcodes/uuid/00000000-0000-0000-0000-000000000000')).status, 404);
  });
});
