import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { isRunning, taskTypeLabel } from '../../api/task-format.ts';
import { sourceSummary } from '../../api/task-row-text.ts';

/** Before the demo's first event: its import as it runs (the task list is kept live), then the wait for the first event. */
export function DemoPreparing() {
  const { session } = useSignedIn();
  const tasks = useQuery(getQuery('/api/background-tasks', { query: { organization_uuid: session.organization_uuid, per_page: 1 } }));
  const task = tasks.data?.items[0];
  return (
    <EmptyState title="The first demo event is on its way">
      <p>
        The demo imports 300 sites, then a week of appointments; simulated check-ins, check-outs and deliveries start as soon as the sites
        are in and appear here as they happen.
      </p>
      {task && (
        <div className="demo-preparing">
          <p>
            {taskTypeLabel(task.task_type)} of {sourceSummary(task)}: {isRunning(task) ? 'running' : 'done'}
          </p>
          <ProgressBar value={task.progress} label="Progress of the demo import" />
        </div>
      )}
    </EmptyState>
  );
}
