import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { profilesPath } from '../../server/remote/profiles.ts';
import { ServiceClient, ServiceError } from '../../server/remote/service-client.ts';
import { watchTask } from '../../server/remote/watch-task.ts';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { runCli, startCli } from '../support/cli.ts';
import { startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { insertTaskRow } from '../support/tasks.ts';

describe('remote service mode: profiles and tasks watch', () => {
  let remote: TestServer;
  const local = tempDataDir();
  const credential = () => remote.auth.slice('Bearer '.length);

  before(async () => {
    remote = await startTestServer();
    await insertTaskRow(remote, 'done-task', {
      status: 'COMPLETED',
      progress: 100,
      results: { inserted: 950, excluded: 50, excluded_data: [] },
    });
    await insertTaskRow(remote, 'failed-task', { status: 'FAILED', error_message: 'The file is not a spreadsheet.' });
    await insertTaskRow(remote, 'moving-task', { status: 'PROCESSING', progress: 10 });
  });
  after(async () => {
    await remote.stop();
    fs.rmSync(local, { recursive: true, force: true });
  });

  it('saves a profile in a file only its owner can read, warns about it, and lists it without the secret', async () => {
    const added = await runCli([
      'profile',
      'add',
      'staging',
      '--url',
      remote.url,
      '--key',
      credential(),
      '--organization',
      remote.organizationUuid,
      '--data-dir',
      local,
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /Warning: its secret is stored unencrypted/);
    assert.equal(fs.statSync(profilesPath(local)).mode & 0o777, 0o600);
    const listed = await runCli(['profile', 'list', '--data-dir', local]);
    assert.match(listed.stdout, /^staging\t/m);
    assert.ok(!listed.stdout.includes(credential().split(':')[1] ?? 'x'), 'no secret in the list');
    const bad = await runCli(['profile', 'add', 'broken', '--url', 'not a url', '--key', 'a:b', '--data-dir', local]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Profile not saved/);
  });

  it('watches a finished task and exits 0 with its counts', async () => {
    const result = await runCli(['tasks', 'watch', 'done-task', '--profile', 'staging', '--json', '--data-dir', local]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /COMPLETED: inserted 950, excluded 50/);
    assert.equal((JSON.parse(result.stdout) as BackgroundTask).uuid, 'done-task');
  });

  it('exits 1 with the error message for a failed task', async () => {
    const result = await runCli(['tasks', 'watch', 'failed-task', '--profile', 'staging', '--data-dir', local]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /FAILED: The file is not a spreadsheet\./);
  });

  it('follows progress until the task ends', async () => {
    const watching = startCli(['tasks', 'watch', 'moving-task', '--profile', 'staging', '--data-dir', local]);
    await watching.waitFor(/ 10\.0%/);
    await remote.ctx.db.kysely.updateTable('background_tasks').set({ progress: 60 }).where('uuid', '=', 'moving-task').execute();
    await watching.waitFor(/ 60\.0%/);
    await remote.ctx.db.kysely
      .updateTable('background_tasks')
      .set({ status: 'COMPLETED', progress: 100, results: JSON.stringify({ inserted: 3, excluded: 0, excluded_data: [] }) })
      .where('uuid', '=', 'moving-task')
      .execute();
    const result = await watching.done;
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stderr.split('\n').filter((l) => /%$/.test(l));
    assert.match(lines[0] ?? '', /^PROCESSING .* 10\.0%$/);
    assert.match(lines.at(-1) ?? '', /^COMPLETED .* 100\.0%$/);
    assert.ok(lines.length >= 3, `saw the progress move: ${lines.join(' | ')}`);
  });

  it('says in plain words when the key is wrong, the task unknown, or the service unreachable', async () => {
    const wrong = await runCli([
      'tasks',
      'watch',
      'done-task',
      '--url',
      remote.url,
      '--key',
      `${credential().split(':')[0]}:wrong`,
      '--data-dir',
      local,
    ]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /rejected the API key or secret \(401\)/);

    const unknown = await runCli(['tasks', 'watch', 'no-such-task', '--profile', 'staging', '--data-dir', local]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no such resource \(404\)/);

    const stopped = await startTestServer();
    const stoppedUrl = stopped.url;
    await stopped.stop();
    const unreachable = await runCli(['tasks', 'watch', 'done-task', '--url', stoppedUrl, '--key', credential(), '--data-dir', local]);
    assert.equal(unreachable.code, 2);
    assert.match(unreachable.stderr, /Could not reach http:\/\/127\.0\.0\.1:\d+: nothing is listening there/);

    const noProfile = await runCli(['tasks', 'watch', 'done-task', '--profile', 'nope', '--data-dir', local]);
    assert.match(noProfile.stderr, /No profile named "nope"/);
  });

  it('backs off on errors after the task was seen, then gives up', async () => {
    const flaky = await startTestServer();
    await insertTaskRow(flaky, 'stuck', { status: 'PROCESSING', progress: 5 });
    const auth = flaky.auth.slice('Bearer '.length).split(':');
    const real = new ServiceClient({ baseUrl: flaky.url, apiKey: auth[0] ?? '', apiSecret: auth[1] ?? '' });
    const delays: number[] = [];
    const retries: number[] = [];
    let stopped = false;
    await assert.rejects(
      watchTask(real, 'stuck', {
        maxConsecutiveErrors: 5,
        sleep: async (ms) => {
          delays.push(ms);
          if (!stopped) {
            stopped = true;
            await flaky.stop();
          }
        },
        onRetry: (_error, ms) => retries.push(ms),
      }),
      (error: unknown) => error instanceof ServiceError && /Could not reach/.test(error.message),
    );
    assert.deepEqual(delays, [2000, 5000, 10000, 20000, 30000]);
    assert.deepEqual(retries, [5000, 10000, 20000, 30000]);
  });
});

describe('connection defaults', () => {
  it('uses the sandbox credentials.json of --data-dir when no profile or key is given', async () => {
    const server = await startTestServer();
    try {
      await insertTaskRow(server, 'local-task', { status: 'COMPLETED', progress: 100 });
      const result = await runCli(['tasks', 'watch', 'local-task', '--url', server.url, '--data-dir', server.dataDir]);
      assert.equal(result.code, 0, result.stderr);
      const empty = tempDataDir();
      const missing = await runCli(['tasks', 'watch', 'local-task', '--url', server.url, '--data-dir', empty]);
      assert.match(missing.stderr, /No credential/);
      fs.rmSync(empty, { recursive: true });
    } finally {
      await server.stop();
    }
  });
});
