import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RotatingLogFile, type WriteSync } from '../../server/log-file.ts';
import { logFile } from '../../server/logger.ts';
import { eventually } from '../support/eventually.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { writeUntilRefused } from '../support/write-until-refused.ts';

/**
 * A full disk without mounting one (any machine): the log's writes fail with ENOSPC, the free
 * space reads 0, and SQLite may not grow the database (max_page_count: SQLITE_FULL, as on a full drive).
 */
const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

describe('the log on a full disk (injected ENOSPC)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-log-full-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('drops the lines of a failed write, cuts off the part that was written, and says how many it dropped once it can write again', () => {
    const file = path.join(dir, 'x.log');
    let full = false;
    // A full disk takes the start of a write, then refuses the rest.
    const write: WriteSync = (fd, buffer, offset) => {
      if (!full) return fs.writeSync(fd, buffer, offset);
      if (offset > 0) throw noSpace();
      return fs.writeSync(fd, buffer, offset, 7);
    };
    const failures: unknown[] = [];
    const log = new RotatingLogFile(file, { maxBytes: 1024 * 1024, files: 2 }, { write, onWriteFailed: (e) => failures.push(e) });
    assert.equal(log.write('{"msg":"before"}\n'), true);
    full = true;
    assert.equal(log.write('{"msg":"lost 1"}\n{"msg":"lost 2"}\n'), false);
    assert.equal(log.write('{"msg":"lost 3"}\n'), false);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"msg":"before"}\n', 'no half line left');
    assert.equal(failures.length, 2);
    full = false;
    assert.equal(log.write('{"msg":"after"}\n'), true);
    log.close();
    const lines = fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; dropped_lines?: number });
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['before', '3 log lines were dropped: they could not be written (the disk was full or failing)', 'after'],
    );
    assert.equal(lines[1]?.dropped_lines, 3);
  });
});

describe('a server on a full disk (injected: ENOSPC for the log, SQLITE_FULL for the database)', () => {
  let server: TestServer;
  let full = false;
  before(async () => {
    server = await startTestServer({
      diskAccess: {
        freeBytes: () => (full ? 0 : 1024 ** 3),
        writeLog: (fd, buffer, offset) => {
          if (full) throw noSpace();
          return fs.writeSync(fd, buffer, offset);
        },
      },
    });
  });
  after(async () => {
    await server.stop();
  });

  const total = async () =>
    ((await (await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=1`)).json()) as { total: number })
      .total;
  const health = async () => (await (await server.request('/api/health')).json()) as { disk_full: boolean };

  it('writes answer 507 with a message, reads and health go on, the log drops lines; with space back all works, no restart', async () => {
    const before = await total();
    full = true;
    const pages = server.ctx.db.sqlite.pragma('page_count', { simple: true }) as number;
    server.ctx.db.sqlite.pragma(`max_page_count = ${pages}`);
    const { accepted: created, refused } = await writeUntilRefused(
      (i) =>
        server.request(
          '/api/qrcodes',
          jsonBody({ organization_uuid: server.organizationUuid, location: `${i} High Street, Richmond VIC 3121`, name: 'x'.repeat(400) }),
        ),
      { attempts: 500, isRefusal: (res) => res.status !== 201, what: 'a write' },
    );
    assert.equal(refused.status, 507);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'INSUFFICIENT_STORAGE');
    assert.equal(
      body.error.message,
      `The disk is full: free some space on the drive that holds the data folder (${server.dataDir}), then try again.`,
    );
    assert.equal(await total(), before + created, 'the list is read, and holds every 201 and nothing else');
    assert.equal((await health()).disk_full, true);

    full = false;
    server.ctx.db.sqlite.pragma('max_page_count = 4294967294');
    let healthy = false;
    const poll = setInterval(() => {
      void health().then((h) => {
        healthy = !h.disk_full;
      });
    }, 50);
    await eventually(() => healthy, 'health says the disk is no longer full').finally(() => clearInterval(poll));
    const again = await server.request(
      '/api/qrcodes',
      jsonBody({ organization_uuid: server.organizationUuid, location: '1 High Street, Richmond VIC 3121' }),
    );
    assert.equal(again.status, 201);
    assert.equal(await total(), before + created + 1);

    await new Promise((resolve) => setImmediate(resolve));
    const entries = fs
      .readFileSync(logFile(server.dataDir), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { dropped_lines?: number });
    assert.ok(
      entries.some((e) => (e.dropped_lines ?? 0) > 0),
      'the log says how many lines it dropped while the disk was full',
    );
  });
});
