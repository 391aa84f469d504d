import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageWindow } from '../../server/db/page-window.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import type { TestServer } from '../support/server.ts';

describe('paging from the nearer end', () => {
  it('pageWindow reads second-half pages backward, covering every row once', () => {
    for (const total of [0, 1, 7, 24, 25, 26, 99, 100]) {
      for (const perPage of [1, 7, 25]) {
        const seen: number[] = [];
        for (let page = 1; page <= Math.ceil(total / perPage) + 1; page++) {
          const window = pageWindow(total, page, perPage);
          if (!window) {
            assert.ok((page - 1) * perPage >= total);
            continue;
          }
          const start = window.backward ? total - window.offset - window.limit : window.offset;
          assert.equal(start, (page - 1) * perPage, `total ${total} page ${page}`);
          for (let i = 0; i < window.limit; i++) seen.push(start + i);
        }
        assert.deepEqual(
          seen,
          Array.from({ length: total }, (_, i) => i),
          `total ${total} per_page ${perPage}`,
        );
      }
    }
  });

  describe('through the API', () => {
    let server: TestServer;
    let org: string;
    before(async () => {
      server = await startImportTestServer();
      org = server.organizationUuid;
      const qr = ['name,location'];
      const visits = ['tag_name,tag_number,start_date_time,location,service'];
      for (let i = 0; i < 53; i++) {
        qr.push(`Site ${i},"${i + 1} Test Street, Melbourne VIC 3000"`);
        // Repeated starts: the order's tie-break (uuid) decides between them.
        visits.push(
          `Gate,${i % 9},2026-03-${String(1 + (i % 5)).padStart(2, '0')} 09:00,"${i + 1} Test Street, Melbourne VIC 3000",Plumbing`,
        );
      }
      for (const [path, csv] of [
        ['/api/qrcodes/bulk?processing_mode=sync', qr],
        ['/api/appointment_schedule/bulk?processing_mode=sync', visits],
      ] as const) {
        const res = await server.request(path, fileUpload(`${csv.join('\n')}\n`, 'rows.csv', { organization_uuid: org }));
        assert.equal(res.status, 200, await res.text());
      }
    });
    after(() => server.stop());

    const uuids = async (path: string, query: string) => {
      const res = await server.request(`${path}?organization_uuid=${org}&${query}`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { items: { uuid: string }[]; total: number };
      return { uuids: body.items.map((item) => item.uuid), total: body.total };
    };

    it('the total follows every change: a delete on the server connection and an import committed by a worker', async () => {
      const before = await uuids('/api/qrcodes', 'per_page=2');
      assert.equal((await server.request(`/api/qrcodes/uuid/${before.uuids[0]}`, { method: 'DELETE' })).status, 204);
      assert.equal((await uuids('/api/qrcodes', 'per_page=2')).total, before.total - 1);
      const res = await server.request(
        '/api/qrcodes/bulk',
        fileUpload('name,location\nLate,"99 Late Street, Melbourne VIC 3000"\n', 'late.csv', { organization_uuid: org }),
      );
      const { background_task_uuid: task } = (await res.json()) as { background_task_uuid: string };
      assert.equal((await waitForTask(server, task)).status, 'COMPLETED');
      assert.equal((await uuids('/api/qrcodes', 'per_page=2')).total, before.total);
    });

    for (const path of ['/api/qrcodes', '/api/appointment_schedule', '/api/background-tasks']) {
      it(`${path}: the pages of every size, read one by one, are the whole list in order`, async () => {
        const whole = await uuids(path, 'per_page=100');
        assert.ok(whole.total >= 2 && whole.uuids.length === whole.total);
        for (const perPage of [1, 4, 7, 25]) {
          const pages: string[] = [];
          for (let page = 1; page <= Math.ceil(whole.total / perPage) + 1; page++)
            pages.push(...(await uuids(path, `per_page=${perPage}&page=${page}`)).uuids);
          assert.deepEqual(pages, whole.uuids, `per_page=${perPage}`);
        }
      });
    }
  });
});
