import { useEffect } from 'react';
import type { ApiRequest } from '../../api/client.ts';
import { type BackgroundTask, type Page, TASK_STATUSES, TASK_TYPES } from '../../api/types.ts';
import { useApiQuery } from '../../api/use-api.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { useLiveEvent, useLiveStore, useRefetchOnReconnect } from '../../live/live-store.ts';
import { Link, positiveInt, useSearchParams } from '../../router.tsx';
import { isRunning, taskTypeLabel } from './task-format.ts';
import { mergeLiveTask } from './live-list.ts';
import { TaskRow } from './TaskRow.tsx';

const POLL_WITHOUT_LIVE_MS = 4_000;

export function TaskListPage() {
  const { session } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const taskType = params.get('task_type') ?? '';
  const status = params.get('status') ?? '';
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), 10);
  const filtered = taskType !== '' || status !== '';

  const request: ApiRequest = {
    method: 'GET',
    path: '/api/background-tasks',
    query: { organization_uuid: session.organization_uuid, task_type: taskType, status, page, per_page: perPage },
  };
  const tasks = useApiQuery<Page<BackgroundTask>>(request);
  const { data, setData, reload } = tasks;

  const applyLive = (task: BackgroundTask) =>
    setData((current) => current && mergeLiveTask(current, task, { page, matches: (t) => (taskType === '' || t.task_type === taskType) && (status === '' || t.status === status) }));
  useLiveEvent('task.created', applyLive);
  useLiveEvent('task.progress', applyLive);
  useLiveEvent('task.finished', applyLive);
  useLiveEvent('task.removed', ({ uuid }) =>
    setData((current) => current && (current.items.some((t) => t.uuid === uuid) ? { ...current, items: current.items.filter((t) => t.uuid !== uuid), total: Math.max(0, current.total - 1) } : current)),
  );
  useRefetchOnReconnect(reload);

  // Without the live stream, running tasks are polled as the spec suggests (2 to 5 s).
  const liveOpen = useLiveStore((s) => s.status === 'open');
  const anyRunning = data?.items.some(isRunning) ?? false;
  useEffect(() => {
    if (liveOpen || !anyRunning) return;
    const timer = setInterval(reload, POLL_WITHOUT_LIVE_MS);
    return () => clearInterval(timer);
  }, [liveOpen, anyRunning, reload]);

  return (
    <>
      <PageHeader
        title="Tasks"
        description="Background tasks of your organization, newest first: imports and their progress, results and excluded rows."
      />
      <section className="panel" aria-label="Task list">
        <div className="toolbar">
          <SelectField label="Task type" value={taskType} onChange={(v) => setParams({ task_type: v, page: null })}>
            <option value="">All types</option>
            {TASK_TYPES.map((t) => (
              <option key={t} value={t}>
                {taskTypeLabel(t)}
              </option>
            ))}
          </SelectField>
          <SelectField label="Status" value={status} onChange={(v) => setParams({ status: v, page: null })}>
            <option value="">All statuses</option>
            {TASK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.charAt(0) + s.slice(1).toLowerCase()}
              </option>
            ))}
          </SelectField>
          {filtered && (
            <button type="button" className="button button-small button-quiet" onClick={() => setParams({ task_type: null, status: null, page: null })}>
              Clear filters
            </button>
          )}
          <div className="toolbar-end">
            <button type="button" className="button button-small" onClick={reload} disabled={tasks.loading}>
              Refresh
            </button>
          </div>
        </div>
        <ErrorNotice error={tasks.error} onRetry={reload} />
        {!data && tasks.loading && (
          <p className="loading" role="status">
            Loading tasks…
          </p>
        )}
        {data && data.items.length === 0 && !tasks.loading && (
          filtered ? (
            <EmptyState
              title="No tasks match these filters"
              action={
                <button type="button" className="button" onClick={() => setParams({ task_type: null, status: null, page: null })}>
                  Clear filters
                </button>
              }
            />
          ) : page > 1 && data.total > 0 ? (
            <EmptyState title={`There is no page ${page}`} action={<button type="button" className="button" onClick={() => setParams({ page: null })}>Go to the first page</button>} />
          ) : (
            <EmptyState title="No background tasks yet" action={<Link to="/imports" className="button button-primary">Go to Imports</Link>}>
              <p>Every import of QR codes or appointments runs as a background task and appears here with its progress and results.</p>
            </EmptyState>
          )
        )}
        {data && data.items.length > 0 && (
          <div className="table-scroll">
            <table className="table" aria-label="Background tasks" aria-busy={tasks.loading}>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Task</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="col-progress">Progress</th>
                  <th scope="col">Results</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((task) => (
                  <TaskRow key={task.uuid} task={task} href={`/tasks/${task.uuid}`} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['task', 'tasks']} setParams={setParams} />
        )}
        <CurlDisclosure request={request} />
      </section>
    </>
  );
}
