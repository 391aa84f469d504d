import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openConnection, withBusyTimeout } from '../../server/db/database.ts';
import type { QrImportRow } from '../../server/qrcodes/import-row.ts';
import { openQrCodeWriter } from '../../server/qrcodes/import-writer.ts';
import { tinyGeocoder } from '../support/tiny-geocoder.ts';
import { fileUpload, importFileAndWait, startImportTestServer } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/**
 * Rows without a reference are matched by name and location; the writer skips the index lookup for
 * a key it knows no QR code holds (server/imports/engine/known-keys.ts). What it must never do: miss
 * a match, whether the key was there before the import, came earlier in the same file, or was written
 * by another connection between two of the import's batches.
 */
describe('matching QR code rows without a reference by name and location', () => {
  const server = suiteServer(startImportTestServer);
  const org = () => server.organizationUuid;
  const location = (n: number) => `${n} Lygon Street, Carlton VIC 3053`;
  const live = (name: string) =>
    server.ctx.db.sqlite
      .prepare('select count(*) from qrcodes where organization_uuid = ? and name = ? and deleted_on is null')
      .pluck()
      .get(org(), name) as number;

  it('updates the QR codes an earlier import made, restores a deleted one, and matches a row repeated in the file', async () => {
    const csv = (names: string[]) => ['name,location', ...names.map((name, i) => `${name},"${location(i + 1)}"`)].join('\n');
    const run = (content: string) =>
      importFileAndWait<{ inserted: number; updated: number; restored: number }>(server, '/api/qrcodes/bulk', content, 'sites.csv');
    const first = await run(csv(['Keys A', 'Keys B', 'Keys C']));
    assert.deepEqual([first.inserted, first.updated, first.restored], [3, 0, 0]);
    // Deleted through the API, which waits for the lock an import's last work may still hold.
    const keysB = server.ctx.db.sqlite
      .prepare("select uuid from qrcodes where organization_uuid = ? and name = 'Keys B'")
      .pluck()
      .get(org());
    assert.equal((await server.request(`/api/qrcodes/uuid/${keysB}`, { method: 'DELETE' })).status, 204);
    const dry = await server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      fileUpload(`${csv(['Keys A', 'Keys B', 'Keys C', 'Keys D'])}\nKeys D,"${location(4)}"`, 'sites.csv', {
        organization_uuid: org(),
        dry_run: 'true',
      }),
    );
    const dryCounts = (await dry.json()) as { inserted: number; updated: number; restored: number };
    assert.deepEqual([dryCounts.inserted, dryCounts.updated, dryCounts.restored], [1, 3, 1], 'a dry run matches as the import does');
    const again = await run(`${csv(['Keys A', 'Keys B', 'Keys C', 'Keys D'])}\nKeys D,"${location(4)}"`);
    assert.deepEqual([again.inserted, again.updated, again.restored], [1, 3, 1], 'D is new once, then matched; B restored');
    for (const name of ['Keys A', 'Keys B', 'Keys C', 'Keys D']) assert.equal(live(name), 1, name);
  });

  it('matches a QR code another connection wrote between two batches of the import', () => {
    const db = openConnection(server.dataDir);
    try {
      const writer = openQrCodeWriter({ db, organizationUuid: org(), geocoder: tinyGeocoder, options: {} });
      const row = (name: string, n: number): QrImportRow => ({ name, location: location(n) }) as QrImportRow;
      const tally = () => {};
      const batch = (rows: QrImportRow[]) => {
        db.sqlite.exec('BEGIN IMMEDIATE');
        for (const [i, r] of rows.entries()) assert.equal(writer.write(r, i, tally), null);
        writer.endBatch?.();
        db.sqlite.exec('COMMIT');
      };
      batch([row('Between 1', 11)]);
      // The server's own connection creates the QR code the next batch names.
      withBusyTimeout(server.ctx.db.sqlite, 10_000, () =>
        server.ctx.db.sqlite
          .prepare(
            "insert into qrcodes (uuid, organization_uuid, type, name, location, created_on, updated_on) values ('between-2', ?, 'SITE', 'Between 2', ?, '2026-01-01', '2026-01-01')",
          )
          .run(org(), location(12)),
      );
      batch([row('Between 2', 12), row('Between 1', 11)]);
    } finally {
      db.sqlite.close();
    }
    assert.equal(live('Between 2'), 1, 'matched, not written twice');
    assert.equal(live('Between 1'), 1);
    const between2 = server.ctx.db.sqlite.prepare("select latitude from qrcodes where uuid = 'between-2'").pluck().get();
    assert.notEqual(between2, null, 'the import updated the row the other connection wrote');
  });
});
