import type SQLite from 'better-sqlite3';
import type { Kysely, Selectable } from 'kysely';
import { outsideTransaction } from '../db/outside-transaction.ts';
import { DATABASE_VERSION_SQL } from '../db/version.ts';
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
  private readonly byUuid: Prepared<'uuid'>;
  private readonly pages = new Map<string, (args: Record<ListParam, unknown>) => { rows: Row[]; total: number }>();
  private readonly db: Db;
  private readonly version: SQLite.Statement<[], { version: string }>;
  private readonly answers = new Map<string, unknown>();
  private answersAt = '';

  constructor(db: Db) {
    this.db = db;
    this.byUuid = prepare(db.sqlite, db.kysely.selectFrom('background_tasks').selectAll().where('uuid', '=', param('uuid')));
    this.version = db.sqlite.prepare(DATABASE_VERSION_SQL);
  }

  /**
   * The answer to this read as last computed, while the database is unchanged since: data_version
   * moves when another connection (an import worker, the CLI) commits, total_changes() when this
   * one writes. One tiny statement instead of the rows, their JSON columns and the count, for
   * clients that poll an unchanged task or list. A change between the check and the read is
   * caught by the next check, which sees a new version and drops every answer.
   */
  remembered<T>(key: string, compute: () => T): T {
    const version = this.version.get()?.version ?? '';
    if (version !== this.answersAt || this.answers.size >= MAX_REMEMBERED) {
      this.answers.clear();
      this.answersAt = version;
    }
    if (this.answers.has(key)) return this.answers.get(key) as T;
    const answer = compute();
    this.answers.set(key, answer);
    return answer;
  }

  task(uuid: string): BackgroundTask | undefined {
    return this.remembered(`task|${uuid}`, () => {
      const row = this.byUuid.get<Row>({ uuid });
      return row && toTask(row);
    });
  }

  page(query: TaskListQuery): { items: BackgroundTask[]; total: number } {
    const key = `list|${query.organization_uuid}|${query.task_type ?? ''}|${query.status ?? ''}|${query.page}|${query.per_page}`;
    return this.remembered(key, () => {
      const { rows, total } = this.list(query);
      return { items: rows.map(toTask), total };
    });
  }

  /** The page's rows and the total, in one read transaction so both see the same moment. */
  list(query: TaskListQuery): { rows: Row[]; total: number } {
    const filters = `${query.task_type ? 't' : ''}${query.status ? 's' : ''}`;
    let read = this.pages.get(filters);
    if (!read) {
      let base = this.db.kysely.selectFrom('background_tasks').where('organization_uuid', '=', param('org'));
      if (query.task_type) base = base.where('task_type', '=', param<string>('taskType'));
      if (query.status) base = base.where('status', '=', param<TaskListQuery['status'] & string>('status'));
      const rows = prepare<ListParam>(
        this.db.sqlite,
        base.selectAll().orderBy('seq', 'desc').limit(param<number>('limit')).offset(param<number>('offset')),
      );
      const count = prepare<ListParam>(
        this.db.sqlite,
        base.select((eb) => eb.fn.countAll<number>().as('n')),
      );
      read = this.db.sqlite.transaction((args: Record<ListParam, unknown>) => ({
        rows: rows.all<Row>(args),
        total: Number(count.get<{ n: number }>(args)?.n ?? 0),
      }));
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
const MAX_REMEMBERED = 1_000;

const reads = new WeakMap<Db, TaskReads>();
function taskReads(db: Db): TaskReads {
  let r = reads.get(db);
  if (!r) {
    r = new TaskReads(db);
    reads.set(db, r);
  }
  return r;
}

/** One task as a poll sees it. The answer is shared between requests: do not change it. */
export async function readTask(db: Db, uuid: string): Promise<BackgroundTask | undefined> {
  await outsideTransaction(db);
  return taskReads(db).task(uuid);
}

/** Newest first. The answer is shared between requests: do not change it. */
export async function listTasks(db: Db, query: TaskListQuery): Promise<{ items: BackgroundTask[]; total: number }> {
  await outsideTransaction(db);
  return taskReads(db).page(query);
}
