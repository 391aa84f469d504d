import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFile, openDraft, QR_FILE } from '../import-drafts/support.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

/** Every list that takes a `search` term, with a term that matches one of its items. */
describe('a control character in a search term is a 400 naming query.search, on every list that searches', () => {
  let server: TestServer;
  let lists: Array<{ what: string; path: string; found: string }>;

  before(async () => {
    server = await startTestServer();
    const org = `organization_uuid=${server.organizationUuid}`;
    const task = await importFile(server, '/api/qrcodes/bulk', QR_FILE, 'depots.csv');
    const draft = await openDraft(server, task.uuid);
    lists = [
      { what: 'QR codes', path: `/api/qrcodes?${org}`, found: 'Depot' },
      { what: 'background tasks', path: `/api/background-tasks?${org}`, found: 'depots' },
      { what: 'services', path: `/api/services?${org}`, found: 'Clean' },
      { what: 'rows of an import draft', path: `/api/import-drafts/uuid/${draft.uuid}/rows?`, found: 'High Street' },
    ];
  });
  after(() => server.stop());

  it('refuses NUL, other C0 controls and DEL, in the middle of a term or alone, and still finds by the plain term', async () => {
    for (const { what, path, found } of lists) {
      const plain = await server.request(`${path}&search=${encodeURIComponent(found)}`);
      const page = (await plain.json()) as { total: number };
      assert.equal(plain.status, 200, what);
      assert.ok(page.total >= 1, `${what}: the plain term finds its item`);
      for (const term of [`${found.slice(0, 2)}\u0000${found.slice(2)}`, 'a\u0000b', '\u0000', '\u0001xy', 'ab\u007f']) {
        const res = await server.request(`${path}&search=${encodeURIComponent(term)}`);
        const body = (await res.json()) as ErrorBody;
        assert.equal(res.status, 400, `${what} ${JSON.stringify(term)}`);
        assert.equal(body.error.code, 'VALIDATION_ERROR');
        assert.deepEqual(
          body.error.details?.map((d) => d.path),
          ['query.search'],
          `${what} ${JSON.stringify(term)}`,
        );
        assert.match(body.error.details?.[0]?.message ?? '', /must not contain control characters/);
      }
      const tab = await server.request(`${path}&search=${encodeURIComponent(`${found}\tx`)}`);
      assert.equal(tab.status, 200, `${what}: a tab, which a pasted cell may hold, is searched for`);
    }
  });
});
