import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { param, prepare } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import type { LiveBus } from '../live/bus.ts';
import { nowIso } from '../time.ts';
import type { BackgroundTask, TaskType } from './schemas.ts';
import { findTask, insertTask, toTask } from './store.ts';

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

export async function failTask(db: Kysely<Database>, uuid: string, message: string): Promise<void> {
  await db
    .updateTable('background_tasks')
    .set({ status: 'FAILED', error_message: message, results: null, updated_on: nowIso() })
    .where('uuid', '=', uuid)
    .where('status', 'in', ['PENDING', 'PROCESSING'])
    .execute();
}

/**
 * Synchronous task updates for a worker thread, meant to run inside the worker's own batch
 * transactions so a task's state and its data commit together.
 */
export function taskUpdates(db: Db) {
  const k = db.kysely;
  const processing = prepare<'uuid' | 'now' | 'from' | 'to'>(
    db.sqlite,
    k
      .updateTable('background_tasks')
      .set({ status: param<'PROCESSING'>('to'), updated_on: param('now') })
      .where('uuid', '=', param('uuid'))
      .where('status', '=', param<'PENDING'>('from')),
  );
  const progress = prepare<'uuid' | 'now' | 'progress'>(
    db.sqlite,
    k
      .updateTable('background_tasks')
      .set({ progress: param<number>('progress'), updated_on: param('now') })
      .where('uuid', '=', param('uuid')),
  );
  const finished = prepare<'uuid' | 'now' | 'status' | 'progress' | 'results' | 'message'>(
    db.sqlite,
    k
      .updateTable('background_tasks')
      .set({
        status: param<'COMPLETED' | 'FAILED'>('status'),
        progress: param<number>('progress'),
        results: param('results'),
        error_message: param('message'),
        updated_on: param('now'),
      })
      .where('uuid', '=', param('uuid')),
  );
  const read = prepare<'uuid'>(db.sqlite, k.selectFrom('background_tasks').selectAll().where('uuid', '=', param('uuid')));
  return {
    markProcessing: (uuid: string) => processing.run({ uuid, from: 'PENDING', to: 'PROCESSING', now: nowIso() }),
    setProgress: (uuid: string, value: number) => progress.run({ uuid, progress: Math.round(value * 10) / 10, now: nowIso() }),
    complete: (uuid: string, results: Record<string, unknown>) =>
      finished.run({ uuid, status: 'COMPLETED', progress: 100, results: JSON.stringify(results), message: null, now: nowIso() }),
    fail: (uuid: string, message: string, progress: number) =>
      finished.run({ uuid, status: 'FAILED', progress, results: null, message, now: nowIso() }),
    read: (uuid: string): BackgroundTask | undefined => {
      const row = read.get<Parameters<typeof toTask>[0]>({ uuid });
      return row && toTask(row);
    },
  };
}
export type TaskUpdates = ReturnType<typeof taskUpdates>;

/**
 * Live events of a task, published on the main thread (workers post them there) whoever started
 * it (GUI, CLI, curl). Each carries the whole task, so a list that has not seen it can show it.
 */
export function publishTaskCreated(live: LiveBus, task: BackgroundTask): void {
  live.publish({ type: 'task.created', organization_uuid: task.organization_uuid, data: task });
}

export function publishTaskProgress(live: LiveBus, task: BackgroundTask, progress: number): void {
  live.publish({
    type: 'task.progress',
    organization_uuid: task.organization_uuid,
    data: { ...task, status: 'PROCESSING', progress, updated_on: nowIso() },
  });
}

export async function publishTaskFinished(live: LiveBus, db: Kysely<Database>, uuid: string): Promise<BackgroundTask | undefined> {
  const task = await findTask(db, uuid);
  if (task) live.publish({ type: 'task.finished', organization_uuid: task.organization_uuid, data: task });
  return task;
}
