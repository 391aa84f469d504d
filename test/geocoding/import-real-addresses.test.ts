/**
 * Real-form addresses imported through the real API on a server with the shipped gazetteer: QR code
 * rows (free text and parts) and appointment rows (free text); the stored address is read back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AppointmentImportResult } from '../../server/appointments/schemas.ts';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import type { QrCode } from '../../server/qrcodes/schemas.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface QrImport {
  qr_code_inserted: number;
  excluded_qr_codes: { index: number; error: string }[];
}

describe('importing addresses as people write them', () => {
  const server = suiteServer();

  const qrCodeNamed = async (name: string): Promise<QrCode | undefined> => {
    const res = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=${encodeURIComponent(name)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as { items: QrCode[] }).items.find((q) => q.name === name);
  };
  const stored = (q: QrCode | undefined) => q && [q.suburb, q.state, q.postcode, q.country, q.timezone_name];

  it('QR code rows: real forms are placed where they are, junk and foreign addresses are excluded with the not-located error', async () => {
    const rows = [
      { name: 'George St', location: '100 George St Sydney' },
      { name: 'Hay St', location: '45 Hay St, Perth WA' },
      { name: 'Queen St shop', location: 'Shop 4, 200 Queen Street Brisbane' },
      { name: 'Smith St unit', location: 'Unit 5/12 Smith St, Fitzroy VIC 3065' },
      { name: 'Wrong postcode', location: '12 Smith St, Fitzroy VIC 3000' },
      { name: 'Street number', location: 'zzqx 2150 nowhere lane, Qwertyville ZZ' },
      { name: 'Junk', location: 'asdf 4000 qwerty' },
      { name: 'Paris', location: '10 Rue de Rivoli, 75001 Paris, France' },
      { name: 'Parts Perth', location: 'Head office', suburb: 'Perth', state: 'WA' },
      {
        name: 'Parts PO box',
        location: 'PO Box 55, Sydney',
        address_line_1: 'PO Box 55',
        suburb: 'Sydney',
        state: 'NSW',
        postcode: '1001',
      },
    ].map((row) => ({ organization_uuid: server.organizationUuid, ...row }));
    const res = await server.request('/api/qrcodes/bulk?processing_mode=sync', jsonBody(rows));
    assert.equal(res.status, 200, await res.clone().text());
    const result = (await res.json()) as QrImport;
    assert.deepEqual(
      result.excluded_qr_codes.map((e) => e.index),
      [5, 6, 7],
    );
    for (const excluded of result.excluded_qr_codes) assert.ok(excluded.error.startsWith(ADDRESS_NOT_LOCATED), excluded.error);
    assert.equal(result.qr_code_inserted, 7);

    assert.deepEqual(stored(await qrCodeNamed('George St')), ['Sydney', 'NSW', '2000', 'AU', 'Australia/Sydney']);
    assert.deepEqual(stored(await qrCodeNamed('Hay St')), ['Perth', 'WA', '6000', 'AU', 'Australia/Perth']);
    assert.deepEqual(stored(await qrCodeNamed('Queen St shop')), ['Brisbane', 'QLD', '4000', 'AU', 'Australia/Brisbane']);
    assert.deepEqual(stored(await qrCodeNamed('Smith St unit')), ['Fitzroy', 'VIC', '3065', 'AU', 'Australia/Melbourne']);
    const mismatch = await qrCodeNamed('Wrong postcode');
    assert.deepEqual([...(stored(mismatch) ?? []), mismatch?.precision], ['Fitzroy', 'VIC', '3065', 'AU', 'Australia/Melbourne', 'place']);
    // Parts are stored as given; where they were placed shows in the country, zone and coordinates.
    const partsPerth = await qrCodeNamed('Parts Perth');
    assert.deepEqual(stored(partsPerth), ['Perth', 'WA', null, 'AU', 'Australia/Perth']);
    assert.ok(partsPerth && Math.abs((partsPerth.latitude ?? 0) + 31.95) < 0.1, JSON.stringify(partsPerth));
    const poBox = await qrCodeNamed('Parts PO box');
    assert.deepEqual([...(stored(poBox) ?? []), poBox?.precision], ['Sydney', 'NSW', '1001', 'AU', 'Australia/Sydney', 'postcode']);
    assert.equal(await qrCodeNamed('Paris'), undefined);
  });

  it('appointment rows: the location text is placed, and the QR code made for it holds the suburb, state and postcode', async () => {
    const record = (tag: string, location: string) => ({
      organization_uuid: server.organizationUuid,
      tag_name: tag,
      tag_number: '1',
      start_date_time: '2026-03-02 09:00',
      location,
      service: 'Plumbing',
    });
    const rows = [
      record('Sydney gate', '100 George St Sydney'),
      record('Brisbane gate', 'Level 3, 200 Queen Street Brisbane'),
      record('Perth gate', '45 Hay St, Perth WA'),
      record('Junk gate', 'asdf 4000 qwerty'),
      record('Paris gate', '10 Rue de Rivoli, 75001 Paris, France'),
    ];
    const res = await server.request('/api/appointment_schedule/bulk?processing_mode=sync', jsonBody(rows));
    assert.equal(res.status, 200, await res.clone().text());
    const result = (await res.json()) as AppointmentImportResult;
    assert.deepEqual(
      result.excluded_appointments.map((e) => e.index),
      [3, 4],
    );
    for (const excluded of result.excluded_appointments)
      assert.ok(excluded.error_message.startsWith(ADDRESS_NOT_LOCATED), excluded.error_message);
    const places = [];
    for (const schedule of result.appointment_schedules_upserted) {
      const qr = await server.request(`/api/qrcodes/uuid/${schedule.qr_code_uuid}`);
      assert.equal(qr.status, 200);
      places.push(stored((await qr.json()) as QrCode));
    }
    assert.deepEqual(places, [
      ['Sydney', 'NSW', '2000', 'AU', 'Australia/Sydney'],
      ['Brisbane', 'QLD', '4000', 'AU', 'Australia/Brisbane'],
      ['Perth', 'WA', '6000', 'AU', 'Australia/Perth'],
    ]);
    // 09:00 in Perth is +08:00: the appointment is read in the zone of where it was placed.
    assert.equal(result.appointment_schedules_upserted[2]?.start_date_time, '2026-03-02T09:00:00+08:00');
  });
});
