import type { Kysely, Selectable } from 'kysely';
import { outsideTransaction } from '../db/busy-wait.ts';
import type { Db } from '../db/database.ts';
import { param, prepare, type Prepared } from '../db/prepared.ts';
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

/**
 * The request path's reads, compiled once per database (prepared statements). A task row is
 * written whole (status, progress and results in one statement), so one read sees a coherent task.
 */
class TaskReads {
  readonly byUuid: Prepared<'uuid'>;
  private readonly pages = new Map<string, (args: Record<ListParam, unknown>) => { rows: Row[]; total: number }>();
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
    this.byUuid = prepare(db.sqlite, db.kysely.selectFrom('background_tasks').selectAll().where('uuid', '=', param('uuid')));
  }

  /** The page's rows and the total, in one read transaction so both see the same moment. */
  list(query: TaskListQuery): { rows: Row[]; total: number } {
    const filters = `${query.task_type ? 't' : ''}${query.status ? 's' : ''}`;
    let read = this.pages.get(filters);
    if (!read) {
      let base = this.db.kysely.selectFrom('background_tasks').where('organization_uuid', '=', param('org'));
      if (query.task_type) base = base.where('task_type', '=', param<string>('taskType'));
      if (query.status) base = base.where('status', '=', param<TaskListQuery['status'] & string>('status'));
      const rows = prepare<ListParam>(this.db.sqlite, base.selectAll().orderBy('seq', 'desc').limit(param<number>('limit')).offset(param<number>('offset')));
      const count = prepare<ListParam>(this.db.sqlite, base.select((eb) => eb.fn.countAll<number>().as('n')));
      read = this.db.sqlite.transaction((args: Record<ListParam, unknown>) => ({ rows: rows.all<Row>(args), total: Number(count.get<{ n: number }>(args)?.n ?? 0) }));
      this.pages.set(filters, read);
    }
    return read({
      org: query.organization_uuid,
      taskType: query.task_type,
      status: query.status,
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    });
  }
}
type ListParam = 'org' | 'taskType' | 'status' | 'limit' | 'offset';

const reads = new WeakMap<Db, TaskReads>();
function taskReads(db: Db): TaskReads {
  let r = reads.get(db);
  if (!r) reads.set(db, (r = new TaskReads(db)));
  return r;
}

/** One task as a poll sees it (a prepared statement). */
export async function readTask(db: Db, uuid: string): Promise<BackgroundTask | undefined> {
  await outsideTransaction(db);
  const row = taskReads(db).byUuid.get<Row>({ uuid });
  return row && toTask(row);
}

/** Newest first. */
export async function listTasks(db: Db, query: TaskListQuery): Promise<{ items: BackgroundTask[]; total: number }> {
  await outsideTransaction(db);
  const { rows, total } = taskReads(db).list(query);
  return { items: rows.map(toTask), total };
}
