import type { TaskStatus } from '../api/types.ts';

const labels: Record<TaskStatus, string> = { PENDING: 'Pending', PROCESSING: 'Processing', COMPLETED: 'Completed', FAILED: 'Failed' };

export function StatusBadge({ status }: { status: TaskStatus }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{labels[status]}</span>;
}
