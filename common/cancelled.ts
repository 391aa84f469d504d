/**
 * How a cancelled import's error_message starts. A cancelled import ends FAILED (the API keeps the
 * service's four statuses); its message is the record that it was cancelled, and the GUI shows such
 * a task as Cancelled.
 */
export const CANCELLED_MESSAGE_START = 'Cancelled';

/** A FAILED task that ended because someone cancelled it. */
export function isCancelledTask(task: { status: string; error_message?: string | null }): boolean {
  return task.status === 'FAILED' && (task.error_message ?? '').startsWith(CANCELLED_MESSAGE_START);
}
