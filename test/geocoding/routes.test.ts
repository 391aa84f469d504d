/** GET /api/geocoder and POST /api/geocoder/locate on a real server with the shipped gazetteer. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import type { GeocoderAbout, LocateResult } from '../../server/geocoding/schemas.ts';
import { startImportTestServer } from '../support/imports.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

describe('the geocoder routes', () => {
  const server = suiteServer();

  const locate = async (body: Record<string, unknown>, auth?: string): Promise<LocateResult> => {
    const init = jsonBody(body);
    const res = await server.request(
      '/api/geocoder/locate',
      auth ? { ...init, headers: { 'content-type': 'application/json', authorization: auth } } : init,
    );
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as LocateResult;
  };

  it('GET /api/geocoder describes the offline gazetteer from its own data', async () => {
    const res = await server.request('/api/geocoder');
    assert.equal(res.status, 200);
    const about = (await res.json()) as GeocoderAbout;
    assert.equal(about.offline, true);
    assert.equal(about.name, 'Offline GeoNames gazetteer');
    assert.deepEqual(
      about.countries.map((c) => [c.code, c.name]),
      [
        ['AU', 'Australia'],
        ['US', 'United States'],
        ['GB', 'United Kingdom'],
        ['CA', 'Canada'],
        ['IT', 'Italy'],
      ],
    );
    assert.equal(
      about.places,
      about.countries.reduce((sum, c) => sum + c.places, 0),
      'the countries add up to the total',
    );
    assert.ok(about.places > 100_000, `${about.places} places`);
    for (const c of about.countries)
      assert.ok(c.postcodes > 1000 && c.postcodes <= c.places, `${c.code}: ${c.postcodes} postcodes of ${c.places} places`);
    assert.ok(about.time_zones > 40, `${about.time_zones} zones`);
    const geonames = about.sources.find((s) => s.url === 'https://www.geonames.org');
    assert.equal(geonames?.licence, 'Creative Commons Attribution 4.0');
    assert.match(geonames?.attribution ?? '', /© GeoNames.*Royal Mail/);
    assert.deepEqual(
      about.precisions.map((p) => p.precision),
      ['postcode', 'place', 'city', 'postcode_only'],
    );
    assert.equal(about.not_located_message, ADDRESS_NOT_LOCATED);
  });

  it('locates a free-text address and address parts as an import would, with precision and time zone', async () => {
    const fitzroy = await locate({ location: '12 Smith St, Fitzroy VIC 3065, Australia' });
    assert.equal(fitzroy.located, true);
    assert.equal(fitzroy.read_from, 'location');
    assert.equal(fitzroy.error, null);
    assert.equal(fitzroy.result?.precision, 'postcode');
    assert.match(fitzroy.result?.precision_meaning ?? '', /agree/);
    assert.deepEqual(
      [fitzroy.result?.suburb, fitzroy.result?.state, fitzroy.result?.postcode, fitzroy.result?.timezone_name],
      ['Fitzroy', 'VIC', '3065', 'Australia/Melbourne'],
    );
    assert.ok(
      Math.abs((fitzroy.result?.latitude ?? 0) + 37.8) < 0.05 && Math.abs((fitzroy.result?.longitude ?? 0) - 144.98) < 0.05,
      JSON.stringify(fitzroy.result),
    );

    // A postcode from a numeric spreadsheet cell, given as parts: the parts are read, the location is not.
    const darwin = await locate({
      location: 'ignored when parts are given',
      suburb: 'Darwin',
      state: 'NT',
      postcode: '800',
      country: 'Australia',
    });
    assert.equal(darwin.read_from, 'parts');
    assert.deepEqual([darwin.result?.postcode, darwin.result?.timezone_name], ['0800', 'Australia/Darwin']);

    const london = await locate({ location: 'London SW1A 1AA, United Kingdom' });
    assert.deepEqual([london.result?.precision, london.result?.timezone_name], ['city', 'Europe/London']);
  });

  it('an address that cannot be located gets the import row error and the reason in plain words', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { location: '10 Rue de Rivoli, Paris', country: 'France' },
        /^"France" is not a country the gazetteer covers: it has places in Australia, United States, United Kingdom, Canada and Italy only\.$/,
      ],
      [
        { suburb: 'Richmond', country: 'AU' },
        /^"Richmond" is a place in several states \(NSW, VIC, .*\): add the state or the postcode\.$/,
      ],
      // Without a country, Australia comes first: its Fitzroys are in two states; a US city alone is not enough.
      [{ suburb: 'Fitzroy' }, /^"Fitzroy" is a place in several states \(VIC and SA\): add the state or the postcode\.$/],
      [
        { suburb: 'Chicago' },
        /^No Australian place is called "Chicago", and without a country a place name of another country is not enough on its own/,
      ],
      [{ location: 'asdf 4000 qwerty' }, /"4000" was not read as a postcode: a postcode comes after the suburb or state, or at the end\./],
      [{ postcode: '3000', state: 'NSW', country: 'AU' }, /postcode 3000 is Melbourne \(VIC\); the state given is NSW/],
      [
        { suburb: 'Atlantis', postcode: '00000', country: 'AU' },
        /^Neither the place "Atlantis" nor the postcode "00000" is in the gazetteer for Australia\.$/,
      ],
      [
        { location: '1 Nowhere Road, Atlantis ZZ 00000' },
        /No place was recognised in "1 Nowhere Road, Atlantis ZZ 00000" together with its postcode or state/,
      ],
    ];
    for (const [body, reason] of cases) {
      const answer = await locate(body);
      assert.equal(answer.located, false, JSON.stringify(body));
      assert.equal(answer.result, null);
      assert.equal(answer.error, ADDRESS_NOT_LOCATED);
      assert.match(answer.reason ?? '', reason);
    }
  });

  it('answers what a QR code import does with the same addresses', async () => {
    const org = server.organizationUuid;
    const rows = [
      { organization_uuid: org, name: 'Paris', location: '10 Rue de Rivoli, Paris, France' },
      { organization_uuid: org, name: 'Perth', location: '2 Hay St, Perth WA 6000' },
    ];
    const res = await server.request('/api/qrcodes/bulk?processing_mode=sync', jsonBody(rows));
    assert.equal(res.status, 200, await res.clone().text());
    const imported = (await res.json()) as { excluded_qr_codes: { index: number; error: string }[] };
    const paris = await locate({ location: rows[0]?.location });
    assert.deepEqual(
      imported.excluded_qr_codes.map((e) => [e.index, e.error]),
      [[0, `${paris.error} ${paris.reason}`]],
      "the import's error is the spec sentence and then the reason",
    );
    const perth = await locate({ location: rows[1]?.location });
    const list = await server.request(`/api/qrcodes?organization_uuid=${org}&search=Perth`);
    const [record] = ((await list.json()) as { items: { timezone_name: string; latitude: number; postcode: string }[] }).items;
    assert.deepEqual(
      [record?.timezone_name, record?.latitude, record?.postcode],
      [perth.result?.timezone_name, perth.result?.latitude, perth.result?.postcode],
    );
  });

  it('refuses a request without an address, with unknown fields or wrong types, naming the field', async () => {
    const bad: [unknown, string][] = [
      [{}, 'body.location'],
      [{ location: '   ', suburb: '' }, 'body.location'],
      [{ location: 'Fitzroy VIC 3065', street: 'x' }, 'body'],
      [{ location: 3065 }, 'body.location'],
      [{ location: 'x'.repeat(501) }, 'body.location'],
    ];
    for (const [body, path] of bad) {
      const res = await server.request('/api/geocoder/locate', jsonBody(body));
      assert.equal(res.status, 400, JSON.stringify(body));
      const error = ((await res.json()) as ErrorBody).error;
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.ok(
        error.details?.some((d) => d.path === path),
        `${JSON.stringify(body)}: ${JSON.stringify(error.details)}`,
      );
    }
    const noBody = await server.request('/api/geocoder/locate', { method: 'POST' });
    assert.equal(noBody.status, 400);
  });

  it('a viewer key may read and try addresses; no key is 401', async () => {
    const keyRes = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'geocoder viewer' }));
    const viewer = bearer((await keyRes.json()) as { api_key: string; api_secret: string });
    assert.equal((await server.request('/api/geocoder', { headers: { authorization: viewer } })).status, 200);
    assert.equal((await locate({ location: 'Fitzroy VIC 3065' }, viewer)).located, true);
    const anonymous = await fetch(`${server.url}/api/geocoder/locate`, jsonBody({ location: 'Fitzroy VIC 3065' }));
    assert.equal(anonymous.status, 401);
    assert.equal((await fetch(`${server.url}/api/geocoder`)).status, 401);
  });
});

describe('the geocoder routes on a server with another geocoder module', () => {
  it('use the geocoder imports use, and say only that it is a custom module', async () => {
    const server = await startImportTestServer();
    try {
      const about = (await (await server.request('/api/geocoder')).json()) as GeocoderAbout;
      assert.equal(about.name, 'Custom geocoder module');
      assert.equal(about.offline, false, 'claims nothing it cannot know');
      const res = await server.request('/api/geocoder/locate', jsonBody({ location: '2 High St, Carlton NSW 2218' }));
      const answer = (await res.json()) as LocateResult;
      // The tiny test geocoder knows a few dozen suburbs; Carlton NSW is not one of them, though the gazetteer has it.
      assert.deepEqual([answer.located, answer.error, answer.reason], [false, ADDRESS_NOT_LOCATED, null]);
    } finally {
      await server.stop();
    }
  });
});
