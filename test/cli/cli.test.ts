import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { runCli, spawnServe } from '../support/cli.ts';
import { bearer } from '../support/server.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

describe('qr-sandbox command line', () => {
  it('serves, prints the URL and a sign-in link, and stops cleanly on SIGTERM', async () => {
    const dir = freshDir();
    const serve = await spawnServe(['--data-dir', dir]);
    assert.match(serve.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(serve.output(), /Sign in\s+http:\/\/127\.0\.0\.1:\d+\/#key=qrs_\w+:\S+/);
    const health = await fetch(`${serve.url}/api/health`);
    assert.equal(health.status, 200);
    assert.equal(await serve.stop('SIGTERM'), 0);
    assert.match(serve.output(), /Stopped\./);
    const db = fs.readdirSync(dir);
    assert.ok(db.includes(DATABASE_FILE));
    assert.ok(
      !db.includes(`${DATABASE_FILE}-wal`) || fs.statSync(path.join(dir, `${DATABASE_FILE}-wal`)).size === 0,
      'the database was closed cleanly (WAL checkpointed)',
    );
  });

  it('creates an organization while a server runs on the same data dir', async () => {
    const dir = freshDir();
    const serve = await spawnServe(['--data-dir', dir]);
    try {
      const result = await runCli(['org', 'create', '--name', 'Field Team North', '--data-dir', dir]);
      assert.equal(result.code, 0, result.stderr);
      const created = JSON.parse(result.stdout) as { organization_uuid: string; api_key: string; api_secret: string };
      assert.deepEqual(Object.keys(created).sort(), ['api_key', 'api_secret', 'organization_uuid']);
      const res = await fetch(`${serve.url}/api/background-tasks?organization_uuid=${created.organization_uuid}`, {
        headers: { authorization: bearer(created) },
      });
      assert.equal(res.status, 200, 'the running server accepts the new key at once');
      const demo = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')) as { organization_uuid: string };
      const cross = await fetch(`${serve.url}/api/background-tasks?organization_uuid=${demo.organization_uuid}`, {
        headers: { authorization: bearer(created) },
      });
      assert.equal(cross.status, 403, 'the new key cannot read the demo organization');
    } finally {
      assert.equal(await serve.stop(), 0);
    }
  });

  it('explains itself with --help, per command, and on mistakes', async () => {
    const overview = await runCli(['--help']);
    assert.equal(overview.code, 0);
    assert.match(overview.stdout, /Commands:/);
    assert.match(overview.stdout, /serve/);
    assert.match(overview.stdout, /org create/);

    const serveHelp = await runCli(['serve', '--help']);
    assert.equal(serveHelp.code, 0);
    for (const flag of ['--port', '--host', '--data-dir']) assert.match(serveHelp.stdout, new RegExp(flag));

    const orgHelp = await runCli(['org', 'create', '--help']);
    assert.match(orgHelp.stdout, /--name/);

    const unknown = await runCli(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command: frobnicate/);

    const missingName = await runCli(['org', 'create', '--data-dir', freshDir()]);
    assert.equal(missingName.code, 2);
    assert.match(missingName.stderr, /needs --name/);

    const badFlag = await runCli(['serve', '--prot', '1']);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /--prot/);
    assert.match(badFlag.stderr, /serve --help/);
  });

  it('exits once with a clear message (no crash loop, no stack) when the data dir holds something else', async () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, DATABASE_FILE), 'not a database at all, just some text '.repeat(100));
    const result = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /is not a SQLite database/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });

  it('says so when the port is taken', async () => {
    const dir = freshDir();
    const serve = await spawnServe(['--data-dir', dir]);
    try {
      const port = new URL(serve.url).port;
      const result = await runCli(['serve', '--port', port, '--data-dir', freshDir()]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
    } finally {
      await serve.stop();
    }
  });
});
