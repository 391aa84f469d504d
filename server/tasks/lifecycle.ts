import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { LiveBus } from '../live/bus.ts';
import { nowIso } from '../time.ts';
import type { BackgroundTask } from './schemas.ts';
import { findTask } from './store.ts';

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
