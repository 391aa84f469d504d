/**
 * The WAL after an import: the worker's last checkpoint empties it, so the data folder does not
 * keep the WAL's size (about 80 MB after a large import) once the import is done.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { databasePath } from '../../server/db/database.ts';
import { eventually } from '../support/eventually.ts';
import { addressCsv, startCsvImport, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

const ROWS = 30_000;
const MB = 1024 * 1024;

describe('the WAL after an import', () => {
  const server = suiteServer(startImportTestServer);

  it('is emptied when the import ends, with every row in the database', async () => {
    const wal = `${databasePath(server.dataDir)}-wal`;
    const walBytes = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    const uuid = await startCsvImport(server, addressCsv(ROWS, 'WAL'), 'wal.csv');
    const task = await waitForTask(server, uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    // Left as it was, the WAL would hold the import's pages: about 15 MB here.
    await eventually(() => walBytes() < MB, 'the WAL file is emptied');
    const stored = server.ctx.db.sqlite
      .prepare('select count(*) from qrcodes where organization_uuid = ? and external_reference_id like ?')
      .pluck()
      .get(server.organizationUuid, 'WAL-%');
    assert.equal(stored, ROWS);
  });
});
