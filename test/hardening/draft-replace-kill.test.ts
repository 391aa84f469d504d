/**
 * Issue 38, attack 1: an editor key killed the server in four requests. A draft with one
 * 10,000-character cell; find and replace `a` with 1,000 × `a`, then `a` with 10 × `a`, then `a`
 * with `b`: the last replace hit V8's "invalid size" in String.replace and the process aborted
 * (no handler can catch that), the database having grown from 7 MB to 860 MB on the way. The
 * server runs as a child process so that, before the fix, its abort fails this test instead of
 * the test runner.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { type ChildServer, startChildServer } from '../support/child-server.ts';

const databaseMb = (child: ChildServer) =>
  ['', '-wal']
    .map((suffix) => path.join(child.dataDir, `${DATABASE_FILE}${suffix}`))
    .filter((file) => fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0) /
  (1024 * 1024);

describe('the four requests that killed the server', () => {
  let child: ChildServer | undefined;
  after(async () => {
    await child?.kill();
    if (child) fs.rmSync(child.dataDir, { recursive: true, force: true });
  });

  it('are refused (a 400 naming the limit) or done within the limits, and the server stays up', async () => {
    child = await startChildServer();
    const server = child;
    const send = (pathname: string, body: unknown) =>
      server.request(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = await send('/api/import-drafts', { kind: 'qrcodes', rows: [{ values: { name: 'Depot', data: 'a'.repeat(10_000) } }] });
    assert.equal(created.status, 201, await created.clone().text());
    const { uuid } = (await created.json()) as { uuid: string };
    const databaseBefore = databaseMb(server);

    // All four requests are sent, then judged: before the fix the last one aborted the server (its answer never came).
    const answers: { status: number | string; text: string }[] = [];
    for (const [find, replacement] of [
      ['a', 'a'.repeat(1000)],
      ['a', 'a'.repeat(10)],
      ['a', 'b'],
    ] as const) {
      try {
        const res = await send(`/api/import-drafts/uuid/${uuid}/replace`, { column: 'data', find, replace: replacement });
        answers.push({ status: res.status, text: (await res.text()).slice(0, 300) });
      } catch (error) {
        answers.push({ status: 'no answer', text: String((error as Error).cause ?? error) });
      }
    }
    assert.equal(server.child.signalCode, null, `the server is alive (answers: ${JSON.stringify(answers)})`);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [400, 400, 200],
      JSON.stringify(answers),
    );
    assert.match(
      answers[0]?.text ?? '',
      /would make data 10,000,000 characters long; data holds at most 10,000 characters\. Nothing was changed/,
    );
    assert.match(answers[1]?.text ?? '', /would make data 100,000 characters long/);
    assert.match(answers[2]?.text ?? '', /"changed":1/);

    const health = await server.request('/api/health');
    assert.equal(health.status, 200, 'the server is up');
    assert.equal(server.child.exitCode, null);
    assert.equal(server.child.signalCode, null);
    const rows = (await (await server.request(`/api/import-drafts/uuid/${uuid}/rows`)).json()) as { rows: { cells: { data: string } }[] };
    assert.equal(rows.rows[0]?.cells.data, 'b'.repeat(10_000));
    const grown = databaseMb(server) - databaseBefore;
    assert.ok(grown < 5, `the database grew ${grown.toFixed(1)} MB, not hundreds`);
  });
});
