import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toCurl } from '../../renderer/src/api/curl.ts';
import { type ImportKindMeta, rememberImportKinds } from '../../renderer/src/api/import-kinds.ts';
import {
  answerCounts,
  isFinalFailure,
  readImportAnswer,
  remoteImportRequest,
  remoteStatus,
  remoteTaskPage,
  splitCredential,
} from '../../renderer/src/api/remote-api.ts';
import { backoffDelay, nextPollDelay, REMOTE_POLL } from '../../renderer/src/api/remote-poll.ts';
import { ServiceClient } from '../../server/remote/service-client.ts';
import { watchTask } from '../../server/remote/watch-task.ts';
import { startTestServer } from '../support/server.ts';
import { insertTaskRow } from '../support/tasks.ts';

const request = { method: 'GET' as const, path: '/api/remote/prod/api/background-tasks/uuid/t1' };
/** Shaped as the GUI's ApiFailure (api/client.ts, which needs a browser to load). */
const failure = (status: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error('x'), { status, request, headers: new Headers(headers) });

describe('GUI remote mode: requests and answers', () => {
  test('a profile credential is key and secret, or key:secret pasted into the key field', () => {
    assert.deepEqual(splitCredential('qrs_abc', 's3cret'), { api_key: 'qrs_abc', api_secret: 's3cret' });
    assert.deepEqual(
      splitCredential(' qrs_abc:s3:cret ', ''),
      { api_key: 'qrs_abc', api_secret: 's3:cret' },
      'split at the first colon, as the CLI',
    );
    assert.deepEqual(splitCredential('qrs_abc', ''), {
      problem: 'secret',
      message: 'Enter the API secret (or paste key:secret into the API key field).',
    });
    assert.equal((splitCredential('', 'x') as { problem: string }).problem, 'key');
  });

  test('an import to a profile goes through the local proxy with the same form fields; a QR JSON file as a JSON body', async () => {
    // The kinds' endpoints come from the server, as the GUI loads them at start.
    const server = await startTestServer();
    try {
      rememberImportKinds(((await (await server.request('/api/meta')).json()) as { kinds: ImportKindMeta[] }).kinds);
    } finally {
      await server.stop();
    }
    const csv = remoteImportRequest('prod', 'appointments', 'org-9', 'background', 'visits.csv', 'acme-jobs');
    assert.equal(csv.path, '/api/remote/prod/api/appointment_schedule/bulk');
    assert.deepEqual(csv.form?.fields, { organization_uuid: 'org-9', processing_mode: 'background', org_identifier: 'acme-jobs' });
    assert.equal(
      remoteImportRequest('prod', 'appointments', 'org-9', 'sync', 'v.csv').form?.fields.org_identifier,
      undefined,
      'default handler: no org_identifier',
    );
    const json = remoteImportRequest('my.prod', 'qrcodes', 'org-9', 'sync', 'sites.json');
    assert.equal(json.path, '/api/remote/my.prod/api/qrcodes/bulk');
    assert.deepEqual(json.query, { processing_mode: 'sync' });
    const curl = toCurl(json, { origin: 'http://127.0.0.1:8787', credential: { apiKey: 'k', apiSecret: 's' }, revealSecret: false });
    assert.match(curl, /'http:\/\/127\.0\.0\.1:8787\/api\/remote\/my\.prod\/api\/qrcodes\/bulk\?processing_mode=sync'/);
    assert.match(curl, /--data-binary '@sites\.json'$/);
    assert.equal(remoteTaskPage('a b', 'u/1'), '/remote/a%20b/tasks/u%2F1');
  });

  test('202 is a task to follow; 200 is a sync result, with its task when the service names it', () => {
    assert.deepEqual(readImportAnswer(202, { background_task_uuid: 't1', task_id: 'x' }, new Headers()), { kind: 'task', uuid: 't1' });
    assert.deepEqual(readImportAnswer(200, { inserted: 1 }, new Headers({ 'x-background-task-uuid': 't2' })), {
      kind: 'sync',
      body: { inserted: 1 },
      uuid: 't2',
    });
    assert.deepEqual(readImportAnswer(200, [1], new Headers()), { kind: 'sync', body: {}, uuid: null });
  });

  test('sync answers are counted like task results', () => {
    assert.deepEqual(
      answerCounts({ inserted: 3, excluded: 2, excluded_data: [{}, {}] }).map((c) => [c.label, c.value]),
      [
        ['inserted', 3],
        ['excluded', 2],
      ],
    );
    assert.deepEqual(
      answerCounts({ appointment_schedules_upserted: [{}, {}, {}], excluded_appointments: [{}] }).map((c) => [c.label, c.value]),
      [
        ['appointment schedules upserted', 3],
        ['excluded appointments', 1],
      ],
    );
  });

  test('polling stops at once for failures polling will not mend, and goes on for outages', () => {
    assert.equal(remoteStatus(failure(502, { 'x-remote-status': '401' })), 401);
    assert.equal(remoteStatus(failure(502)), null);
    assert.equal(isFinalFailure(failure(502, { 'x-remote-status': '401' })), true, 'the remote refused the key');
    assert.equal(isFinalFailure(failure(502, { 'x-remote-status': '302' })), true, 'the remote redirects');
    assert.equal(isFinalFailure(failure(404)), true, 'no such task or profile');
    assert.equal(isFinalFailure(failure(502)), false, 'network error or timeout');
    assert.equal(isFinalFailure(failure(503)), false);
    assert.equal(isFinalFailure(failure(0)), false, 'this server not reachable for a moment');
    assert.equal(isFinalFailure(new TypeError('a bug in the page')), true);
  });
});

describe('GUI remote mode: polling schedule', () => {
  test('the GUI polls and backs off exactly as qr-sandbox tasks watch does', async () => {
    const remote = await startTestServer();
    try {
      await insertTaskRow(remote, 'stuck', { progress: 5 });
      const [apiKey = '', apiSecret = ''] = remote.auth.slice('Bearer '.length).split(':');
      const client = new ServiceClient({ baseUrl: remote.url, apiKey, apiSecret });
      const polls: number[] = [];
      const retries: number[] = [];
      await assert.rejects(
        watchTask(client, 'stuck', {
          sleep: async (ms) => {
            if (retries.length === 0) polls.push(ms);
            if (polls.length === 5 && retries.length === 0) await remote.stop();
          },
          onRetry: (_error, ms) => retries.push(ms),
        }),
      );

      const gui: number[] = [];
      let delay: number | null = null;
      for (let i = 0; i < polls.length; i += 1) {
        delay = nextPollDelay(delay, i === 0);
        gui.push(delay);
      }
      assert.deepEqual(gui, polls, 'the same waits while the task does not move');
      assert.deepEqual([2000, 3000, 4000, 5000, 5000], polls);

      const guiRetries = Array.from({ length: REMOTE_POLL.maxFailures - 1 }, (_, i) => backoffDelay(i + 1));
      assert.deepEqual(guiRetries, retries, 'the same backoff after failures, and the same number of failures before giving up');
      assert.deepEqual(retries, [5000, 10000, 20000, 30000, 30000, 30000, 30000]);
    } finally {
      await remote.stop().catch(() => undefined);
    }
  });
});
