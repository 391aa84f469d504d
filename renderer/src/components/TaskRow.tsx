import type { BackgroundTask } from '../api/types.ts';
import type { Column } from './ListView.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { isCancelledTask } from '../../../common/cancelled.ts';
import { Link } from '../router.tsx';
import { useNow } from './use-now.ts';
import { isRunning, taskTypeLabel } from '../api/task-format.ts';
import { formatDateTime } from './date-time.ts';
import { formatElapsed, taskElapsedMs } from '../api/task-duration.ts';
import { resultPhrase, sourceSummary, startedBy, taskTime } from '../api/task-row-text.ts';

/**
 * One task in a task list (this sandbox's or a remote service's): when and by whom, what, status,
 * progress, results. The whole row is its link (a real <a> stretched over the row), so a click
 * anywhere opens the task, Ctrl+click or middle click opens it in a new tab, and Tab reaches it.
 */
export function TaskRow({ task, href }: { task: BackgroundTask; href: string }) {
  const what = sourceSummary(task);
  const who = startedBy(task);
  const results = resultPhrase(task);
  const when = taskTime(task.created_on);
  return (
    <tr data-task-uuid={task.uuid} className="row-link">
      <td className="nowrap">
        <span title={formatDateTime(task.created_on)}>{when}</span>
        {who && <span className="task-who">by {who}</span>}
      </td>
      <td className="task-cell">
        <Link to={href} className="row-link-anchor" aria-label={`${taskTypeLabel(task.task_type)}, ${what}, started ${when}`}>
          <span className="task-type">{taskTypeLabel(task.task_type)}</span>
        </Link>
        <span className="task-file" title={what}>
          {what}
        </span>
      </td>
      <td>
        <StatusBadge task={task} />
      </td>
      <td className="nowrap num col-duration">
        <TaskDuration task={task} />
      </td>
      <td className="col-progress">
        <ProgressBar value={task.progress} label={`Progress of task ${task.uuid}`} compact />
      </td>
      <td className={`results-cell ${task.status === 'FAILED' && !isCancelledTask(task) ? 'text-error' : ''}`} title={results}>
        <span className="clamp-2">{results || <span className="muted">{isRunning(task) ? 'Running…' : '—'}</span>}</span>
      </td>
    </tr>
  );
}

/** How long the task ran; while it runs, the time so far, counting up. */
function TaskDuration({ task }: { task: BackgroundTask }) {
  const running = isRunning(task);
  const now = useNow(running);
  const text = formatElapsed(taskElapsedMs(task, running, now));
  return running ? <span title="Running: the time so far">{text}…</span> : <span>{text}</span>;
}

const COLUMN_CLASSES: Record<string, string> = { Progress: 'col-progress', Duration: 'col-duration' };

/** The headers of a task list; each row is a TaskRow. */
export const TASK_COLUMNS: Column<BackgroundTask>[] = ['Created', 'Task', 'Status', 'Duration', 'Progress', 'Results'].map((header) => ({
  header,
  className: COLUMN_CLASSES[header],
  cell: () => null,
}));
