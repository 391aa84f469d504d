import type { Kysely, Selectable } from 'kysely';
import { cachedCount } from '../db/count-cache.ts';
import { inListOrder, pageWindow } from '../db/page-window.ts';
import type { BackgroundTaskTable, Database } from '../db/schema.ts';
import type { BackgroundTask, TaskListQuery } from './schemas.ts';

type Row = Selectable<BackgroundTaskTable>;

export function toTask(row: Row): BackgroundTask {
  return {
    uuid: row.uuid,
    task_id: row.task_id,
    task_type: row.task_type,
    status: row.status,
    progress: row.progress,
    created_by_uuid: row.created_by_uuid,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as BackgroundTask['metadata']),
    organization_uuid: row.organization_uuid,
    results: row.results === null ? null : (JSON.parse(row.results) as BackgroundTask['results']),
    error_message: row.error_message,
    created_on: row.created_on,
    updated_on: row.updated_on,
  };
}

export async function insertTask(db: Kysely<Database>, task: BackgroundTask): Promise<void> {
  await db
    .insertInto('background_tasks')
    .values({
      ...task,
      metadata: task.metadata === null ? null : JSON.stringify(task.metadata),
      results: task.results === null ? null : JSON.stringify(task.results),
    })
    .execute();
}

export async function findTask(db: Kysely<Database>, uuid: string): Promise<BackgroundTask | undefined> {
  const row = await db.selectFrom('background_tasks').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  return row && toTask(row);
}

/** Newest first. */
export async function listTasks(db: Kysely<Database>, query: TaskListQuery): Promise<{ items: BackgroundTask[]; total: number }> {
  let base = db.selectFrom('background_tasks').where('organization_uuid', '=', query.organization_uuid);
  if (query.task_type) base = base.where('task_type', '=', query.task_type);
  if (query.status) base = base.where('status', '=', query.status);
  const total = await cachedCount(db, base);
  const window = pageWindow(total, query.page, query.per_page);
  if (!window) return { items: [], total };
  const rows = await base.selectAll().orderBy('seq', window.backward ? 'asc' : 'desc').limit(window.limit).offset(window.offset).execute();
  return { items: inListOrder(window, rows).map(toTask), total };
}
