import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { runCli } from '../support/cli.ts';

describe('qr-sandbox inbox rules, as a process against serve --port 0', () => {
  let server: ChildServer;
  let inboxUuid = '';
  let inboxUrl = '';
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-rules-cli-'));
  const target = () => ['--url', server.url, '--key', server.auth.slice('Bearer '.length)];
  const rules = (...args: string[]) => runCli(['inbox', 'rules', ...args, '--inbox', inboxUuid, ...target()]);

  before(async () => {
    server = await startChildServer();
    const res = await server.request('/api/inboxes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization_uuid: server.organizationUuid, name: 'cli rules' }),
    });
    assert.equal(res.status, 201);
    const inbox = (await res.json()) as { uuid: string; url: string };
    inboxUuid = inbox.uuid;
    inboxUrl = inbox.url;
  });
  after(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    fs.rmSync(files, { recursive: true, force: true });
  });

  const answer = async (attempt: string) =>
    (await fetch(inboxUrl, { method: 'POST', headers: { 'X-Sandbox-Attempt': attempt }, body: '{}' })).status;

  it('sets "fail the first N attempts", which the inbox then answers, and lists it', async () => {
    const set = await rules('set', '--fail-first', '2', '--status', '502');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /1 rule, the first that matches answers/);
    assert.match(set.stdout, /1\. attempt <= 2\s+-> 502/);
    assert.deepEqual([await answer('1'), await answer('2'), await answer('3')], [502, 502, 400]);

    const listed = await rules('list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), {
      inbox_uuid: inboxUuid,
      rules: [{ match: { attempt_at_most: 2 }, respond: { status: 502 } }],
    });
  });

  it('sets rules from a file (as list --json printed them, or a bare list) and clears them', async () => {
    const file = path.join(files, 'rules.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        rules: [
          { match: { event_type: ['service_confirmation.check_out'], message_at_least: 2 }, respond: { drop: true, delay_ms: 10 } },
          { respond: { status: 418, body: 'teapot' } },
        ],
      }),
    );
    const set = await rules('set', '--file', file);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /1\. event service_confirmation\.check_out, message >= 2 -> drop the connection after 10 ms/);
    assert.match(set.stdout, /2\. every request\s+-> 418 with its body/);
    assert.equal(await answer('1'), 418);

    const cleared = await rules('clear');
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.match(cleared.stdout, /has no rules/);
    assert.equal(await answer('1'), 400);
  });

  it('exits 1 with the server naming the rule and field of invalid rules, and on wrong arguments', async () => {
    const file = path.join(files, 'bad.json');
    fs.writeFileSync(file, JSON.stringify([{ respond: {} }, { match: { attempt_at_least: 3, attempt_at_most: 1 }, respond: {} }]));
    const bad = await rules('set', '--file', file);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /rules\.1\.match\.attempt_at_most must be at least attempt_at_least/);

    const none = await rules('set');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--file rules\.json, or --fail-first N/);
    const notNumber = await rules('set', '--fail-first', 'two');
    assert.equal(notNumber.code, 2);
    assert.match(notNumber.stderr, /--fail-first takes a whole number/);
    const missingFile = await rules('set', '--file', path.join(files, 'no-such.json'));
    assert.equal(missingFile.code, 2);
    assert.match(missingFile.stderr, /Cannot read .*no-such\.json: ENOENT/);
    const both = await rules('set', '--file', file, '--fail-first', '2');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /Give --file or --fail-first, not both/);
    const noInbox = await runCli(['inbox', 'rules', 'list', ...target()]);
    assert.equal(noInbox.code, 2);
    assert.match(noInbox.stderr, /Give the inbox: --inbox UUID/);
    fs.writeFileSync(file, 'not json');
    const notJson = await rules('set', '--file', file);
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /is not JSON/);
    const missing = await runCli(['inbox', 'rules', 'list', '--inbox', '00000000-0000-0000-0000-000000000000', ...target()]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /404/);
  });

  it('explains itself with examples in --help', async () => {
    const help = await runCli(['inbox', 'rules', 'set', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--fail-first VALUE/);
    assert.match(help.stdout, /Examples:\n {2}qr-sandbox inbox rules set --inbox .* --fail-first 2 --status 503/);
    const overview = await runCli(['--help']);
    assert.match(overview.stdout, /inbox rules list/);
  });
});
