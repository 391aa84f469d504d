/**
 * Cancel and retry of imports (POST /api/background-tasks/uuid/{uuid}/cancel, /retry, DELETE
 * …/upload): a running import stops between batches and keeps what it wrote; a queued one ends
 * at once; a failed one runs again from its kept upload as a new task linked to the old one.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addressCsv, startCsvImport, startImportTestServer, type TaskBody, waitForTask } from '../support/imports.ts';
import { bearer, jsonBody, tempDataDir, type TestServer } from '../support/server.ts';

interface ImportJobInfo {
  upload_kept: boolean;
  retry_possible: boolean;
  retried_by: string | null;
  retry_of: string | null;
  cancel_requested_by: string | null;
}

/** Enough rows (12 batches) that a cancel sent at once lands long before the end. */
const ROWS = 60_000;

describe('cancel and retry of imports', () => {
  let server: TestServer;
  /** Until the import's first batch committed (progress shown), so it is PROCESSING with rows written. */
  const processing = async (uuid: string) => {
    for (let polls = 0; ; polls++) {
      const task = (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as TaskBody;
      if (task.status === 'PROCESSING' && task.progress > 0) return;
      assert.ok(polls < 2000 && task.status !== 'COMPLETED', `the import is under way (${task.status})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  /** A queued (PENDING) import, cancelled: behind a big one that holds the one worker, which is cancelled too. */
  const cancelledWhileQueued = async (reference: string) => {
    const big = await startCsvImport(server, addressCsv(ROWS, `BIG${reference}`), 'big.csv');
    await processing(big);
    const queued = await startCsvImport(server, addressCsv(10, reference), `${reference.toLowerCase()}.csv`);
    const answer = (await (await post(queued, 'cancel')).json()) as TaskBody;
    assert.equal(answer.status, 'FAILED');
    assert.equal((await post(big, 'cancel')).status, 200);
    assert.equal((await waitForTask(server, big)).status, 'FAILED');
    return queued;
  };
  const post = (uuid: string, action: string, init: RequestInit = {}) =>
    server.request(`/api/background-tasks/uuid/${uuid}/${action}`, { method: 'POST', ...init });
  const jobOf = async (uuid: string) => (await (await server.request(`/api/background-tasks/uuid/${uuid}/import`)).json()) as ImportJobInfo;
  const stored = (prefix: string) =>
    server.ctx.db.sqlite
      .prepare('select count(*) from qrcodes where organization_uuid = ? and external_reference_id like ?')
      .pluck()
      .get(server.organizationUuid, `${prefix}-%`);
  const uploads = () => fs.readdirSync(path.join(server.dataDir, 'uploads'));

  const dataDir = tempDataDir();
  before(async () => {
    server = await startImportTestServer({ dataDir, imports: { workers: 1 } });
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  let cancelled: TaskBody;

  it('cancels a queued import at once, and a running one after its current batch: the rows written stay and the results count them', async () => {
    // One worker: the big import runs, the small one waits in the queue (PENDING).
    const uuid = await startCsvImport(server, addressCsv(ROWS, 'CANCEL'), 'big-import.csv');
    await processing(uuid);
    const queued = await startCsvImport(server, addressCsv(10, 'QUEUED'), 'queued.csv');
    const queuedCancel = await post(queued, 'cancel');
    assert.equal(queuedCancel.status, 200);
    const queuedTask = (await queuedCancel.json()) as TaskBody;
    assert.equal(queuedTask.status, 'FAILED');
    assert.match(queuedTask.error_message ?? '', /^Cancelled by .+ before any row was written\.$/);

    const answer = await post(uuid, 'cancel');
    assert.equal(answer.status, 200);
    assert.notEqual(((await answer.json()) as TaskBody).status, 'COMPLETED');
    assert.ok((await jobOf(uuid)).cancel_requested_by);
    cancelled = await waitForTask(server, uuid);
    assert.equal(cancelled.status, 'FAILED', JSON.stringify(cancelled));
    const done = Number(/after ([\d,]+) rows/.exec(cancelled.error_message ?? '')?.[1]?.replaceAll(',', ''));
    assert.match(cancelled.error_message ?? '', /^Cancelled by .+ after [\d,]+ rows: those rows were done .* and stay/);
    assert.ok(done > 0 && done < ROWS && done % 5000 === 0, `it stopped between batches of 5,000 rows: ${done}`);
    assert.equal(cancelled.results?.inserted, done, 'the results count the rows written');
    assert.equal(stored('CANCEL'), done, 'exactly those rows are in the database');
    assert.equal((await waitForTask(server, queued)).status, 'FAILED', 'the queued import stays cancelled when its turn comes');
    assert.equal(stored('QUEUED'), 0);
    const again = await post(uuid, 'cancel');
    assert.equal(again.status, 409);
    assert.match(((await again.json()) as { error: { message: string } }).error.message, /already ended \(FAILED\)/);
  });

  it('retries a failed import from its kept upload as a new task linked both ways, and removes the upload once it completes', async () => {
    const before = await jobOf(cancelled.uuid);
    assert.deepEqual([before.upload_kept, before.retry_possible, before.retried_by], [true, true, null]);
    const accepted = await post(cancelled.uuid, 'retry');
    assert.equal(accepted.status, 202);
    const { background_task_uuid: retry } = (await accepted.json()) as { background_task_uuid: string };
    const done = await waitForTask(server, retry);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal(done.metadata?.retry_of, cancelled.uuid);
    assert.equal(done.metadata?.filename, 'big-import.csv');
    const written = cancelled.results?.inserted as number;
    assert.deepEqual(
      [done.results?.inserted, done.results?.updated],
      [ROWS - written, written],
      'rows imported before the cancel are matched, not duplicated',
    );
    assert.equal(stored('CANCEL'), ROWS);
    const after = await jobOf(cancelled.uuid);
    assert.deepEqual([after.retried_by, after.retry_possible, after.upload_kept], [retry, false, false]);
    assert.equal((await jobOf(retry)).retry_of, cancelled.uuid);
    const twice = await post(cancelled.uuid, 'retry');
    assert.equal(twice.status, 409);
    assert.match(((await twice.json()) as { error: { message: string } }).error.message, new RegExp(`retried already, as task ${retry}`));
    assert.ok(!uploads().some((name) => name.includes(cancelled.uuid)), 'no upload is left for the completed retry');
  });

  it('discards a kept upload, after which a retry says to upload the file again', async () => {
    const uuid = await cancelledWhileQueued('DISCARD');
    const kept = uploads().length;
    assert.equal((await server.request(`/api/background-tasks/uuid/${uuid}/upload`, { method: 'DELETE' })).status, 204);
    assert.equal(uploads().length, kept - 1);
    assert.equal((await jobOf(uuid)).upload_kept, false);
    const retry = await post(uuid, 'retry');
    assert.equal(retry.status, 409);
    assert.match(((await retry.json()) as { error: { message: string } }).error.message, /no longer kept .* upload the file again/);
  });

  it('keeps the upload of a failed import across a restart, and lets it go after 7 days', async () => {
    const fresh = await cancelledWhileQueued('KEPT');
    const old = await cancelledWhileQueued('OLD');
    // As if the upload had been made then too (a start removes only files older than itself).
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    for (const name of uploads()) fs.utimesSync(path.join(server.dataDir, 'uploads', name), eightDaysAgo, eightDaysAgo);
    await server.ctx.db.kysely
      .updateTable('background_tasks')
      .set({ updated_on: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .where('uuid', '=', old)
      .execute();
    await server.stop();
    server = await startImportTestServer({ dataDir, imports: { workers: 1 } });
    assert.deepEqual([(await jobOf(fresh)).retry_possible, (await jobOf(old)).retry_possible], [true, false]);
    const retry = await post(fresh, 'retry');
    assert.equal(retry.status, 202);
    const { background_task_uuid } = (await retry.json()) as { background_task_uuid: string };
    assert.equal((await waitForTask(server, background_task_uuid)).status, 'COMPLETED');
    assert.equal(stored('KEPT'), 10);
  });

  it('refuses a viewer, another organization and an unknown task', async () => {
    const viewer = (await (await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'reader' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    assert.equal((await post(cancelled.uuid, 'retry', { headers: { authorization: bearer(viewer) } })).status, 403);
    assert.equal((await post('00000000-0000-0000-0000-000000000000', 'cancel')).status, 404);
    assert.equal((await server.request('/api/background-tasks/uuid/nope/import')).status, 404);
  });
});
