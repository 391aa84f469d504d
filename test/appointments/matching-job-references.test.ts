import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appointmentImportKind } from '../../server/appointments/import-kind.ts';
import { openConnection } from '../../server/db/database.ts';
import { tinyGeocoder } from '../support/tiny-geocoder.ts';
import { importFileAndWait, startImportTestServer } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * Appointments with a job reference are matched by it; the importer skips the index lookup for a
 * reference it knows the organization does not hold (server/imports/engine/known-keys.ts). It must
 * never miss a match: an earlier import's, one earlier in the same file, or one another connection
 * wrote between two of the import's batches.
 */
describe('matching appointments by job reference', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;
  const row = (reference: string, day: number) => ({
    tag_name: 'Gate',
    tag_number: reference,
    start_date_time: `2026-03-${String(day).padStart(2, '0')} 09:00`,
    location: '1 Lygon Street, Carlton VIC 3053',
    duration: '60',
    service: 'Plumbing',
    job_reference_id: reference,
  });
  const starts = (reference: string) =>
    server.ctx.db.sqlite
      .prepare('select start_date_time from appointment_schedules where organization_uuid = ? and job_reference_id = ?')
      .pluck()
      .all(org(), reference) as string[];

  it('updates what an earlier import wrote and a reference repeated in the file, inserting each reference once', async () => {
    const csv = (rows: ReturnType<typeof row>[]) =>
      [
        Object.keys(rows[0] ?? {}).join(','),
        ...rows.map((r) =>
          Object.values(r)
            .map((v) => `"${v}"`)
            .join(','),
        ),
      ].join('\n');
    const run = (content: string) =>
      importFileAndWait<{ inserted: number; updated: number; unchanged: number }>(
        server,
        '/api/appointment_schedule/bulk',
        content,
        'jobs.csv',
      );
    const first = await run(csv([row('JR-1', 2), row('JR-2', 3)]));
    assert.deepEqual([first.inserted, first.updated], [2, 0]);
    const again = await run(csv([row('JR-1', 2), row('JR-2', 4), row('JR-3', 5), row('JR-3', 6)]));
    assert.deepEqual([again.inserted, again.updated, again.unchanged], [1, 2, 1]);
    assert.deepEqual(starts('JR-2'), ['2026-03-04T09:00:00+11:00']);
    assert.deepEqual(starts('JR-3'), ['2026-03-06T09:00:00+11:00'], 'the second JR-3 row updated the first');
    // The QR code the first new tag created is searchable (indexed at its batch's end).
    const found = await server.request(`/api/qrcodes?organization_uuid=${org()}&search=${encodeURIComponent('Lygon Street, Carl')}`);
    const { items } = (await found.json()) as { items: { location: string }[] };
    assert.deepEqual(
      items.map((item) => item.location),
      ['1 Lygon Street, Carlton VIC 3053'],
    );
  });

  it('matches an appointment another connection wrote between two batches of the import', () => {
    const db = openConnection(server.dataDir);
    try {
      const writer = appointmentImportKind.openWriter({
        db,
        organizationUuid: org(),
        geocoder: tinyGeocoder,
        options: { handler_slug: 'default', columnAliases: {}, collect_key: null },
      });
      const batch = (rows: ReturnType<typeof row>[]) => {
        db.sqlite.exec('BEGIN IMMEDIATE');
        for (const [i, r] of rows.entries())
          assert.equal(
            writer.write(r, i, () => {}),
            null,
          );
        writer.endBatch?.();
        db.sqlite.exec('COMMIT');
      };
      batch([row('JR-10', 10)]);
      const existing = server.ctx.db.sqlite
        .prepare('select * from appointment_schedules where organization_uuid = ? and job_reference_id = ?')
        .get(org(), 'JR-10') as Record<string, unknown>;
      // The server's own connection books JR-11, which the next batch names.
      server.ctx.db.sqlite
        .prepare(
          `insert into appointment_schedules (${Object.keys(existing).join(', ')}) values (${Object.keys(existing)
            .map((k) => `@${k}`)
            .join(', ')})`,
        )
        .run({ ...existing, uuid: 'jr-11-by-another', job_reference_id: 'JR-11' });
      batch([row('JR-11', 11)]);
    } finally {
      db.sqlite.close();
    }
    assert.deepEqual(starts('JR-11'), ['2026-03-11T09:00:00+11:00'], 'matched and updated, not inserted twice');
  });
});
