import { useEffect } from 'react';
import { importTasks } from '../../api/import-kinds.ts';
import { TASK_STATUSES, type TaskType } from '../../api/types.ts';
import { useListPage } from '../../api/use-list-page.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { GoToEmptyState, ResetEmptyState } from '../../components/EmptyState.tsx';
import { ListView, RefreshButton } from '../../components/ListView.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Options, SelectField } from '../../components/SelectField.tsx';
import { type TextFilter, TextFilters, useTextFilters } from '../../components/TextFilters.tsx';
import { useLiveStore } from '../../live/live-store.ts';
import { useSearchParams } from '../../router.tsx';
import { isRunning, taskTypeLabel } from '../../api/task-format.ts';
import { TASK_COLUMNS, TaskRow } from '../../components/TaskRow.tsx';

const POLL_WITHOUT_LIVE_MS = 4_000;
const SEARCH = [
  { key: 'search', label: 'Search', size: 28, placeholder: 'File name, task id or error', type: 'search' },
] as const satisfies readonly TextFilter<'search'>[];
/** Every import kind's task types, from the server (GET /api/meta, loaded before any page shows). */
const typeOptions = (): Options => [['', 'All types'], ...importTasks().map((t) => [t.type, taskTypeLabel(t.type)] as const)];
/** The API's statuses, and Cancelled: an import someone cancelled ends FAILED in the API, but it did not fail. */
const CANCELLED = 'CANCELLED';
const STATUS_OPTIONS: Options = [
  ['', 'All statuses'],
  ...TASK_STATUSES.map((s) => [s, s.charAt(0) + s.slice(1).toLowerCase()] as const),
  [CANCELLED, 'Cancelled'],
];

/** The list query of a status filter: Failed leaves out the cancelled imports, which Cancelled lists. */
function statusQuery(status: string) {
  if (status === CANCELLED) return { status: 'FAILED' as const, cancelled: 'true' as const };
  const known = TASK_STATUSES.find((s) => s === status);
  return { status: known, ...(known === 'FAILED' ? { cancelled: 'false' as const } : {}) };
}

export function TaskListPage() {
  const { session } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const taskType = params.get('task_type') ?? '';
  const status = params.get('status') ?? '';
  const search = useTextFilters(SEARCH, 'task-filter');
  const filtered = taskType !== '' || status !== '' || search.active;
  // Live events keep this list current (live/live-queries.ts).
  const paged = useListPage('/api/background-tasks', (paging) => ({
    query: {
      organization_uuid: session.organization_uuid,
      task_type: importTasks().find((t) => t.type === taskType)?.type as TaskType | undefined,
      ...statusQuery(status),
      search: search.applied.search,
      ...paging,
    },
  }));
  const { data, refetch } = paged.list;

  // Without the live stream, running tasks are polled as the spec suggests (2 to 5 s).
  const liveOpen = useLiveStore((s) => s.status === 'open');
  const anyRunning = data?.items.some(isRunning) ?? false;
  useEffect(() => {
    if (liveOpen || !anyRunning) return;
    const timer = setInterval(() => void refetch(), POLL_WITHOUT_LIVE_MS);
    return () => clearInterval(timer);
  }, [liveOpen, anyRunning, refetch]);

  const clearFilters = () => {
    search.change('search', '');
    setParams({ task_type: null, status: null, search: null, page: null });
  };
  return (
    <>
      <PageHeader
        title="Tasks"
        description="Background tasks of your organization, newest first: imports and their progress, results and excluded rows."
      />
      <section className="panel" aria-label="Task list">
        <ListView
          paged={paged}
          label="Background tasks"
          noun={['task', 'tasks']}
          columns={TASK_COLUMNS}
          row={(task) => <TaskRow key={task.uuid} task={task} href={`/tasks/${task.uuid}`} />}
          toolbar={
            <div className="toolbar">
              <TextFilters state={search} error={paged.list.error} />
              <SelectField
                label="Task type"
                value={taskType}
                onChange={(v) => setParams({ task_type: v, page: null })}
                options={typeOptions()}
              />
              <SelectField label="Status" value={status} onChange={(v) => setParams({ status: v, page: null })} options={STATUS_OPTIONS} />
              {filtered && (
                <button type="button" className="button button-small button-quiet" onClick={clearFilters}>
                  Clear filters
                </button>
              )}
              <div className="toolbar-end">
                <RefreshButton list={paged.list} />
              </div>
            </div>
          }
          noMatch={
            filtered ? <ResetEmptyState title="No tasks match these filters" reset="Clear filters" onReset={clearFilters} /> : undefined
          }
          empty={
            <GoToEmptyState title="No background tasks yet" to="/imports" label="Go to Imports">
              <p>Every import of QR codes or appointments runs as a background task and appears here with its progress and results.</p>
            </GoToEmptyState>
          }
        />
      </section>
    </>
  );
}
