/**
 * The import workbench in Debian's Chromium against a real server with the shipped offline
 * geocoder: workbooks whose data is on their second sheet under two title rows, in the column
 * names a field team uses, picked, matched, confirmed, previewed and imported; every row is then
 * in the database. The walk is the one the user guide's screenshots come from (support/workbench-walk.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserUnavailable, chooseCsvFile } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';
import { walkAppointmentWorkbook, walkColumnQuestion, walkNearMissMatch, walkQrWorkbook } from './support/workbench-walk.ts';

const skip = browserUnavailable();
const noShots = async () => undefined;

describe('The import workbench in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();
  const rows = <T>(sql: string) => server.ctx.db.sqlite.prepare(sql).all(server.organizationUuid) as T[];

  test('a QR code workbook on its second sheet under two title rows: picked, matched, confirmed, previewed, imported', async () => {
    const page = await session.signedInPage('/imports');
    await walkQrWorkbook(page, noShots);
    assert.deepEqual(
      rows<{ name: string; location: string; postcode: string }>(
        'select name, location, postcode from qrcodes where organization_uuid = ? and deleted_on is null order by name',
      ),
      [
        { name: 'Bondi kiosk', location: '5 Campbell Parade, Bondi NSW 2026', postcode: '2026' },
        { name: 'Carlton office', location: '12 Smith Street, Carlton VIC 3053', postcode: '3053' },
        { name: 'Darwin depot', location: '1 Mitchell Street, Darwin NT 0800', postcode: '0800' },
        { name: 'Subiaco store', location: '3 Rokeby Road, Subiaco WA 6008', postcode: '6008' },
      ],
    );
    const saved = rows<{ name: string; kind: string; mapping: string }>(
      "select name, kind, mapping from import_handlers where organization_uuid = ? and kind = 'qrcodes'",
    );
    assert.deepEqual(
      saved.map((h) => [h.name, JSON.parse(h.mapping)]),
      [
        [
          'Acme site register',
          { 'Site Name': 'name', 'Street Address': 'address_line_1', Suburb: 'suburb', State: 'state', Postcode: 'postcode' },
        ],
      ],
    );

    // The next file with the same headers gets the saved columns.
    const again = await session.signedInPage('/imports');
    await chooseCsvFile(
      again,
      'more-sites.csv',
      'Site Name,Street Address,Suburb,State,Postcode\r\nGate,1 Lygon Street,Carlton,VIC,3053\r\n',
    );
    await again.getByRole('status').filter({ hasText: 'Using your saved columns Acme site register' }).waitFor();
  });

  test('a column only close to a known name is asked about, not guessed', async () => {
    const page = await session.signedInPage('/imports');
    await walkColumnQuestion(page, noShots);
  });

  test('a near-miss title applied by the API ("Strat Date Time", 80 %) is asked about before anything is sent', async () => {
    const page = await session.signedInPage('/imports');
    await walkNearMissMatch(page, noShots);
  });

  test('an appointment workbook on its second sheet: dates read day first as its own values say, imported', async () => {
    const page = await session.signedInPage('/imports');
    await walkAppointmentWorkbook(page, noShots);
    assert.deepEqual(
      rows<{ ref: string; start: string; service: string }>(
        'select job_reference_id as ref, start_date_time as start, service from appointment_schedules where organization_uuid = ? order by job_reference_id',
      ).map((r) => [r.ref, r.start.slice(0, 16), r.service]),
      [
        ['J-1', '2026-03-25T09:00', 'Plumbing'],
        ['J-2', '2026-04-03T10:30', 'Plumbing'],
        ['J-3', '2026-04-05T14:00', 'Plumbing'],
      ],
    );
  });
});
