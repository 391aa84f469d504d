import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openConnection } from '../../server/db/database.ts';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

/** The preview's trial write waits (asynchronously) for an import that holds the write lock, then checks its rows. */
describe('preview while another connection writes', () => {
  const server = suiteServer(startImportTestServer);

  it('answers once the lock is free', async () => {
    const other = openConnection(server.dataDir);
    other.sqlite.exec('BEGIN IMMEDIATE');
    try {
      const csv =
        'location,name,type\n"1 Collins Street, Melbourne VIC 3000",Depot,bad type!\n"2 Collins Street, Melbourne VIC 3000",Office,SITE\n';
      const pending = server.request(
        '/api/imports/preview',
        fileUpload(csv, 'sites.csv', { kind: 'qrcodes', organization_uuid: server.organizationUuid }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      other.sqlite.exec('COMMIT');
      const res = await pending;
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { rows: { problems: string[] }[] };
      assert.match(body.rows[0]?.problems[0] ?? '', /type: must be a word such as SITE/);
      assert.deepEqual(body.rows[1]?.problems, [], 'the valid row went through the writer once the lock was free');
    } finally {
      if (other.sqlite.inTransaction) other.sqlite.exec('ROLLBACK');
      await other.close();
    }
  });
});
