import type { TaskStatus } from '../api/types.ts';
import { isCancelledTask } from '../../../common/cancelled.ts';

const labels: Record<TaskStatus, string> = { PENDING: 'Pending', PROCESSING: 'Processing', COMPLETED: 'Completed', FAILED: 'Failed' };

/** A task's status in words; a cancelled import (FAILED in the API) says Cancelled. */
export function StatusBadge({ task }: { task: { status: TaskStatus; error_message?: string | null } }) {
  if (isCancelledTask(task)) return <span className="badge badge-cancelled">Cancelled</span>;
  return <span className={`badge badge-${task.status.toLowerCase()}`}>{labels[task.status]}</span>;
}
