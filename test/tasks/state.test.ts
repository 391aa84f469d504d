import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Db } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import type { TaskStatus } from '../../server/tasks/schemas.ts';
import { createPendingTask, failTask, taskUpdates } from '../../server/tasks/state.ts';
import { tempDataDir } from '../support/server.ts';

const ORG = 'org-of-the-state-test';

type Move = 'start' | 'setProgress' | 'complete' | 'fail' | 'failTask';
const MOVES: Move[] = ['start', 'setProgress', 'complete', 'fail', 'failTask'];

/** What each move may do from each status, and where it leads; a move missing here must change nothing. */
const LEGAL: Partial<Record<TaskStatus, Partial<Record<Move, { status: TaskStatus; progress: number }>>>> = {
  PENDING: {
    start: { status: 'PROCESSING', progress: 0 },
    fail: { status: 'FAILED', progress: 7 },
    failTask: { status: 'FAILED', progress: 0 },
  },
  PROCESSING: {
    setProgress: { status: 'PROCESSING', progress: 42.5 },
    complete: { status: 'COMPLETED', progress: 100 },
    fail: { status: 'FAILED', progress: 7 },
    failTask: { status: 'FAILED', progress: 10 },
  },
};

describe('task state: guarded moves on a real database', () => {
  const dir = tempDataDir('qr-task-state-');
  let db: Db;
  let updates: ReturnType<typeof taskUpdates>;
  before(async () => {
    db = await openDatabase(dir);
    await db.kysely.insertInto('organizations').values({ uuid: ORG, name: 'State', default_timezone: 'UTC', created_on: 'x' }).execute();
    updates = taskUpdates(db);
  });
  after(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = (uuid: string) => db.kysely.selectFrom('background_tasks').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();

  /** A task brought to `status` the way the server brings one there. */
  async function taskIn(status: TaskStatus): Promise<string> {
    const { uuid } = await createPendingTask(db.kysely, {
      taskType: 'QR_IMPORT',
      organizationUuid: ORG,
      createdByUuid: 'key',
      metadata: null,
    });
    if (status === 'PENDING') return uuid;
    assert.equal(updates.start(uuid), true);
    assert.equal(updates.setProgress(uuid, 10), true);
    if (status === 'COMPLETED') assert.equal(updates.complete(uuid, { inserted: 1 }), true);
    if (status === 'FAILED') assert.equal(await failTask(db.kysely, uuid, 'it broke'), true);
    assert.equal((await stored(uuid)).status, status);
    return uuid;
  }

  function move(name: Move, uuid: string): boolean | Promise<boolean> {
    switch (name) {
      case 'start':
        return updates.start(uuid);
      case 'setProgress':
        return updates.setProgress(uuid, 42.5);
      case 'complete':
        return updates.complete(uuid, { inserted: 2 });
      case 'fail':
        return updates.fail(uuid, 'the run failed', 7);
      case 'failTask':
        return failTask(db.kysely, uuid, 'its worker died');
    }
  }

  for (const from of ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const) {
    for (const name of MOVES) {
      const expected = LEGAL[from]?.[name];
      if (expected) {
        it(`${name} moves a ${from} task to ${expected.status}`, async () => {
          const uuid = await taskIn(from);
          assert.equal(await move(name, uuid), true);
          const task = await stored(uuid);
          assert.deepEqual([task.status, task.progress], [expected.status, expected.progress]);
          if (expected.status === 'COMPLETED') assert.deepEqual(JSON.parse(task.results ?? 'null'), { inserted: 2 });
          if (expected.status === 'FAILED') assert.ok(task.error_message);
        });
      } else {
        it(`${name} on a ${from} task is refused and changes nothing`, async () => {
          const uuid = await taskIn(from);
          const before = await stored(uuid);
          assert.equal(await move(name, uuid), false, 'the move reports it did not happen');
          assert.deepEqual(await stored(uuid), before, 'the stored task is unchanged');
        });
      }
    }
  }

  it('a move of a task that does not exist is refused', async () => {
    assert.equal(updates.start('no-such-task'), false);
    assert.equal(await failTask(db.kysely, 'no-such-task', 'x'), false);
  });
});
