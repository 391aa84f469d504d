import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { param, prepare } from '../db/prepared.ts';
import type { BackgroundTaskTable, Database } from '../db/schema.ts';
import { nowIso } from '../time.ts';
import { type BackgroundTask, type TaskStatus, type TaskType, taskStatuses } from './schemas.ts';
import { insertTask, toTask } from './store.ts';

/**
 * The one owner of a task's status: every write of background_tasks.status is here. A task moves
 *
 *   (new)      -> PENDING     created with its job, before any worker has it
 *   PENDING    -> PROCESSING  a worker starts the run
 *   PENDING    -> FAILED      the run could not start (upload gone or unreadable, unknown import
 *                             kind), or start-up recovery gives up an interrupted import
 *   PROCESSING -> COMPLETED   the run wrote every row
 *   PROCESSING -> FAILED      the run failed, its worker died, or start-up recovery gives it up
 *
 * COMPLETED and FAILED are final. A quit or crash leaves a task where it was (PROCESSING resumes
 * at its checkpoint; that is no move). Each move is one UPDATE that matches the task only in a
 * status it may leave that way, so an illegal move (complete a PENDING task, end a task twice)
 * changes nothing even when two writers race (a dying worker's crash handler and its last
 * commit). A move answers whether it happened; it does not throw, because a refused move is the
 * expected end of such a race: the caller decides whether it matters (the engine reports a
 * refused start or completion as a failed run, which the main thread logs).
 */
export const TASK_TRANSITIONS = {
  PENDING: ['PROCESSING', 'FAILED'],
  PROCESSING: ['COMPLETED', 'FAILED'],
  COMPLETED: [],
  FAILED: [],
} as const satisfies Record<TaskStatus, readonly TaskStatus[]>;

type Target = 'PROCESSING' | 'COMPLETED' | 'FAILED';

/** The statuses a task may move to `to` from. */
function sourcesOf(to: Target): TaskStatus[] {
  return taskStatuses.filter((from) => (TASK_TRANSITIONS[from] as readonly TaskStatus[]).includes(to));
}

/** The UPDATE of one move: the statuses are literals, so a prepared statement binds only the uuid and the fields. */
function moveTask(db: Kysely<Database>, uuid: string, to: Target, fields: Omit<Updateable<BackgroundTaskTable>, 'status'>) {
  return db
    .updateTable('background_tasks')
    .set({ ...fields, status: sql.lit(to) })
    .where('uuid', '=', uuid)
    .where(
      'status',
      'in',
      sourcesOf(to).map((from) => sql.lit(from)),
    );
}

/** A new task, PENDING until a worker picks it up. */
export async function createPendingTask(
  db: Kysely<Database>,
  input: { taskType: TaskType; organizationUuid: string; createdByUuid: string; metadata: Record<string, unknown> | null; uuid?: string },
): Promise<BackgroundTask> {
  const uuid = input.uuid ?? randomUUID();
  const now = nowIso();
  const task: BackgroundTask = {
    uuid,
    task_id: `task-${uuid}`,
    task_type: input.taskType,
    status: 'PENDING',
    progress: 0,
    created_by_uuid: input.createdByUuid,
    metadata: input.metadata,
    organization_uuid: input.organizationUuid,
    results: null,
    error_message: null,
    created_on: now,
    updated_on: now,
  };
  await insertTask(db, task);
  return task;
}

/**
 * Fails a PENDING or PROCESSING task (main thread: a dead worker, start-up recovery, a cancel),
 * keeping its progress; `onlyIfPending`: only a task no worker has started. False when it did not move.
 */
export async function failTask(
  db: Kysely<Database>,
  uuid: string,
  message: string,
  options: { onlyIfPending?: boolean } = {},
): Promise<boolean> {
  let update = moveTask(db, uuid, 'FAILED', { error_message: message, results: null, updated_on: nowIso() });
  if (options.onlyIfPending) update = update.where('status', '=', sql.lit('PENDING'));
  const result = await update.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The same moves, synchronous, for an import worker: they run inside the worker's own batch
 * transactions where needed, so a task's state and its data commit together. Each answers
 * whether the task moved.
 */
export function taskUpdates(db: Db) {
  const k = db.kysely;
  const start = prepare<'uuid' | 'now'>(db.sqlite, moveTask(k, param('uuid'), 'PROCESSING', { updated_on: param('now') }));
  const progress = prepare<'uuid' | 'now' | 'progress'>(
    db.sqlite,
    k
      .updateTable('background_tasks')
      .set({ progress: param<number>('progress'), updated_on: param('now') })
      .where('uuid', '=', param('uuid'))
      .where('status', '=', sql.lit('PROCESSING')),
  );
  const end = (to: 'COMPLETED' | 'FAILED') =>
    prepare<'uuid' | 'now' | 'progress' | 'results' | 'message'>(
      db.sqlite,
      moveTask(k, param('uuid'), to, {
        progress: param<number>('progress'),
        results: param('results'),
        error_message: param('message'),
        updated_on: param('now'),
      }),
    );
  const complete = end('COMPLETED');
  const fail = end('FAILED');
  const read = prepare<'uuid'>(db.sqlite, k.selectFrom('background_tasks').selectAll().where('uuid', '=', param('uuid')));
  const moved = (result: { changes: number }) => result.changes > 0;
  return {
    start: (uuid: string) => moved(start.run({ uuid, now: nowIso() })),
    /** Progress moves only while the task is PROCESSING. */
    setProgress: (uuid: string, value: number) => moved(progress.run({ uuid, progress: Math.round(value * 10) / 10, now: nowIso() })),
    complete: (uuid: string, results: Record<string, unknown>) =>
      moved(complete.run({ uuid, progress: 100, results: JSON.stringify(results), message: null, now: nowIso() })),
    /** `results`: what a cancelled import did before it stopped (its rows stay); null otherwise. */
    fail: (uuid: string, message: string, progress: number, results: Record<string, unknown> | null = null) =>
      moved(fail.run({ uuid, progress, results: results && JSON.stringify(results), message, now: nowIso() })),
    read: (uuid: string): BackgroundTask | undefined => {
      const row = read.get<Parameters<typeof toTask>[0]>({ uuid });
      return row && toTask(row);
    },
  };
}
