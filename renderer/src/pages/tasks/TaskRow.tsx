import type { BackgroundTask } from '../../api/types.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { Link } from '../../router.tsx';
import { fileName, formatDateTime, formatShortDateTime, isRunning, resultSummary, taskTypeLabel } from './task-format.ts';

/** One task in a task list (this sandbox's or a remote service's): when, what, status, progress, results. */
export function TaskRow({ task, href }: { task: BackgroundTask; href: string }) {
  return (
    <tr data-task-uuid={task.uuid}>
      <td className="nowrap">
        <Link to={href} aria-label={`Task ${task.uuid}`} title={formatDateTime(task.created_on)}>
          {formatShortDateTime(task.created_on)}
        </Link>
      </td>
      <td className="task-cell">
        <span className="task-type">{taskTypeLabel(task.task_type)}</span>
        <span className="task-file" title={fileName(task) ?? ''}>
          {fileName(task) ?? 'JSON body'}
        </span>
      </td>
      <td>
        <StatusBadge status={task.status} />
      </td>
      <td className="col-progress">
        <ProgressBar value={task.progress} label={`Progress of task ${task.uuid}`} compact />
      </td>
      <td className={`results-cell ${task.status === 'FAILED' ? 'text-error' : ''}`} title={resultSummary(task)}>
        <span className="clamp-2">{resultSummary(task) || <span className="muted">{isRunning(task) ? 'Running…' : '—'}</span>}</span>
      </td>
    </tr>
  );
}
