/**
 * GET /api/live tells about every task, whoever started it: a task created by a plain HTTP import
 * is announced at once with the whole task, its progress moves while the first (and only) batch
 * is still being written, and its end comes with the results.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LiveEvent } from '../../server/live/bus.ts';
import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { jsonBody, startTestServer } from '../support/server.ts';
import { SLOW_GEOCODER_MODULE } from '../support/slow-geocoder.ts';
import { suiteServer } from '../support/suite-server.ts';

describe('live task events', () => {
  const server = suiteServer(() => startTestServer({ imports: { geocoderModule: SLOW_GEOCODER_MODULE } }));

  test('created, progress within a batch, finished: each with the whole task', async () => {
    const events: LiveEvent[] = [];
    const finished = new Promise<void>((resolve) => {
      server.ctx.live.subscribe((event) => {
        events.push(event);
        if (event.type === 'task.finished') resolve();
      });
    });
    // 1,200 rows stay under one batch (5,000 rows): without progress within a batch, nothing moves until the end.
    const records = Array.from({ length: 1200 }, (_, i) => ({
      organization_uuid: server.organizationUuid,
      location: '1 Mitchell St, Darwin NT 0800',
      name: `Site ${i}`,
    }));
    const answer = await server.request('/api/qrcodes/bulk', jsonBody(records));
    assert.equal(answer.status, 202);
    const { background_task_uuid: uuid } = (await answer.json()) as { background_task_uuid: string };
    await finished;

    const mine = events.filter((e) => (e.data as BackgroundTask).uuid === uuid);
    assert.ok(mine.every((e) => e.organization_uuid === server.organizationUuid));
    assert.equal(mine[0]?.type, 'task.created', 'announced before any progress');
    assert.equal(mine.at(-1)?.type, 'task.finished');
    const created = mine[0]?.data as BackgroundTask;
    assert.equal(created.status, 'PENDING');
    assert.equal(created.task_type, 'IMPORT');
    assert.deepEqual(
      created.metadata,
      { import_type: 'json', source: 'api', api_key_name: 'My Organization admin', api_key_role: 'admin' },
      'who started it',
    );

    const progress = mine.filter((e) => e.type === 'task.progress').map((e) => e.data as BackgroundTask);
    assert.ok(
      progress.every((t) => t.created_on === created.created_on && t.task_type === 'IMPORT' && t.status === 'PROCESSING'),
      'whole tasks',
    );
    const between = progress.map((t) => t.progress).filter((p) => p > 0 && p < 99);
    assert.ok(between.length >= 2, `progress moved within the batch: ${progress.map((t) => t.progress).join(', ')}`);
    assert.deepEqual(
      between,
      [...between].sort((a, b) => a - b),
      'never backwards',
    );

    const end = mine.at(-1)?.data as BackgroundTask;
    assert.equal(end.status, 'COMPLETED');
    assert.equal(end.results?.qr_code_inserted, 1200);

    const stored = (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as BackgroundTask;
    assert.equal(stored.metadata?.api_key_name, 'My Organization admin', 'the API answer names who started it too');
  });

  test('a sync import refused over its cap is announced as removed', async () => {
    const events: LiveEvent[] = [];
    const unsubscribe = server.ctx.live.subscribe((event) => events.push(event));
    const records = Array.from({ length: 10_001 }, (_, i) => ({
      organization_uuid: server.organizationUuid,
      location: 'x',
      name: `Over ${i}`,
    }));
    const answer = await server.request('/api/qrcodes/bulk?processing_mode=sync', jsonBody(records));
    unsubscribe();
    assert.equal(answer.status, 400);
    const created = events.find((e) => e.type === 'task.created')?.data as BackgroundTask | undefined;
    assert.ok(created, 'the task was announced');
    assert.deepEqual(events.find((e) => e.type === 'task.removed')?.data, { uuid: created.uuid });
    assert.equal((await server.request(`/api/background-tasks/uuid/${created.uuid}`)).status, 404);
  });
});
