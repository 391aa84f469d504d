import { CANCELLED_MESSAGE_START } from '../../common/cancelled.ts';
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { isShortSearch, likePattern, SHORT_SEARCH_CAP, trigramQuery } from '../db/trigram-search.ts';
import { taskMatches } from './search.ts';
import { outsideTransaction } from '../db/outside-transaction.ts';
import { databaseVersion, VersionedAnswers } from '../db/version.ts';
import { JsonText } from '../http/json-text.ts';
import { toPage } from '../http/pagination.ts';
import type { Db } from '../db/database.ts';
import { param, perDatabase, prepare, type Prepared } from '../db/prepared.ts';
import { pageSlice } from '../db/counted-page.ts';
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

/** A task as a poll answers it: the task and its JSON text, computed once while the task is unchanged. */
export interface TaskAnswer {
  task: BackgroundTask;
  json: JsonText;
}

/**
 * The request path's reads, compiled once per database (prepared statements). A task row is
 * written whole (status, progress and results in one statement), so one read sees a coherent task.
 * Answers are remembered while the database is unchanged (see VersionedAnswers): clients poll an
 * unchanged task or list far more often than it changes, and one tiny statement then replaces
 * the rows, their JSON columns, the count and the serialisation.
 */
class TaskReads {
  private readonly byUuid: Prepared<'uuid'>;
  private readonly floor: Prepared<'org'>;
  private readonly pages = new Map<string, (args: Record<ListParam, unknown>) => { rows: Row[]; total: number }>();
  private readonly db: Db;
  private readonly answers = new VersionedAnswers<TaskAnswer | JsonText | null>(MAX_REMEMBERED);

  constructor(db: Db) {
    this.db = db;
    this.byUuid = prepare(db.sqlite, db.kysely.selectFrom('background_tasks').selectAll().where('uuid', '=', param('uuid')));
    this.floor = prepare(
      db.sqlite,
      db.kysely
        .selectFrom('background_tasks')
        .select('seq')
        .where('organization_uuid', '=', param('org'))
        .orderBy('seq', 'desc')
        .limit(param<number>('one'))
        .offset(param<number>('skip')),
      { one: 1, skip: SHORT_SEARCH_CAP - 1 },
    );
  }

  task(version: string, uuid: string): TaskAnswer | undefined {
    const answer = this.answers.remember(version, `task|${uuid}`, () => {
      const row = this.byUuid.get<Row>({ uuid });
      if (!row) return null;
      const task = toTask(row);
      return { task, json: JsonText.of(task) };
    });
    return (answer as TaskAnswer | null) ?? undefined;
  }

  page(version: string, query: TaskListQuery): JsonText {
    const key = `list|${query.organization_uuid}|${query.task_type ?? ''}|${query.status ?? ''}|${query.cancelled ?? ''}|${query.page}|${query.per_page}|${query.search ?? ''}`;
    return this.answers.remember(version, key, () => {
      const { rows, total } = this.list(query);
      return JsonText.of(toPage({ items: rows.map(toTask), total }, query));
    }) as JsonText;
  }

  /** The page's rows and the total, in one read transaction so both see the same moment. */
  list(query: TaskListQuery): { rows: Row[]; total: number } {
    const term = query.search ?? '';
    const search = term === '' ? '' : isShortSearch(term) ? 'recent' : 'indexed';
    const filters = `${query.task_type ? 't' : ''}${query.status ? 's' : ''}${query.cancelled ?? ''}|${search}`;
    let read = this.pages.get(filters);
    if (!read) {
      let base = this.db.kysely.selectFrom('background_tasks').where('organization_uuid', '=', param('org'));
      if (query.task_type) base = base.where('task_type', '=', param<string>('taskType'));
      if (query.status) base = base.where('status', '=', param<TaskListQuery['status'] & string>('status'));
      // A cancelled import is FAILED with the message a cancel writes (common/cancelled.ts).
      const cancelled = sql<SqlBool>`(status = 'FAILED' and error_message like ${param('cancelledLike')})`;
      if (query.cancelled === 'true') base = base.where(cancelled);
      if (query.cancelled === 'false') base = base.where(sql<SqlBool>`not coalesce(${cancelled}, 0)`);
      if (search === 'indexed')
        base = base.where(sql<SqlBool>`seq in (select rowid from task_search where task_search match ${param('match')})`);
      if (search === 'recent') base = base.where('seq', '>=', param<number>('floor'));
      if (search !== '') base = base.where((eb) => taskMatches(eb, param('pattern')));
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
      match: search === 'indexed' ? trigramQuery(term) : undefined,
      floor: search === 'recent' ? this.recentFloor(query.organization_uuid) : undefined,
      pattern: search === '' ? undefined : likePattern(term),
      cancelledLike: query.cancelled === undefined ? undefined : `${CANCELLED_MESSAGE_START}%`,
      ...pageSlice(query),
    });
  }

  /** The seq of the organization's SHORT_SEARCH_CAP-th newest task, or 0 when it has fewer: a short search looks at those after it. */
  private recentFloor(organizationUuid: string): number {
    return this.floor.get<{ seq: number }>({ org: organizationUuid })?.seq ?? 0;
  }
}
type ListParam = 'org' | 'taskType' | 'status' | 'match' | 'floor' | 'pattern' | 'cancelledLike' | 'limit' | 'offset';
const MAX_REMEMBERED = 1_000;

const taskReads = perDatabase((db) => new TaskReads(db));

/**
 * One task as a poll sees it, as of the database version `readAt` (from the request's
 * authentication) or now. The answer is shared between requests: do not change it.
 */
export async function readTask(db: Db, uuid: string, readAt?: string): Promise<TaskAnswer | undefined> {
  await outsideTransaction(db);
  return taskReads(db).task(readAt ?? databaseVersion(db), uuid);
}

/** A page of tasks, newest first, as the JSON answer (see readTask for `readAt`). */
export async function listTasks(db: Db, query: TaskListQuery, readAt?: string): Promise<JsonText> {
  await outsideTransaction(db);
  return taskReads(db).page(readAt ?? databaseVersion(db), query);
}
