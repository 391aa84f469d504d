import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getQuery } from '../../api/get-query.ts';
import { queryClient } from '../../api/query-client.ts';
import type { BackgroundTask } from '../../api/types.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { writeCall } from '../../api/write-call.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ActionButton } from '../../components/FormActions.tsx';
import { Link, navigate } from '../../router.tsx';

const byUuid = (uuid: string) => ({ path: { background_task_uuid: uuid } });

/** Refetches the task and its import after a change (live events also update the task). */
function refresh(uuid: string) {
  void queryClient.invalidateQueries({ queryKey: ['/api/background-tasks/uuid/{background_task_uuid}'] });
  void queryClient.invalidateQueries({ queryKey: ['/api/background-tasks/uuid/{background_task_uuid}/import', byUuid(uuid)] });
  void queryClient.invalidateQueries({ queryKey: ['/api/background-tasks'] });
}

/**
 * What a user can do with an import task: cancel it while it is queued or running; retry a failed
 * one from its kept upload, or discard that upload; and the links between a task and its retry.
 */
export function TaskActions({ task, canWrite }: { task: BackgroundTask; canWrite: boolean }) {
  const job = useQuery(getQuery('/api/background-tasks/uuid/{background_task_uuid}/import', byUuid(task.uuid)));
  const [confirm, setConfirm] = useState<'cancel' | 'discard' | null>(null);
  // The task's status arrives by live events; what can be done with it changes with it.
  const { refetch } = job;
  useEffect(() => {
    if (task.status) void refetch();
  }, [task.status, refetch]);
  const cancel = writeCall('post', '/api/background-tasks/uuid/{background_task_uuid}/cancel', { params: byUuid(task.uuid) });
  const retryCall = writeCall('post', '/api/background-tasks/uuid/{background_task_uuid}/retry', { params: byUuid(task.uuid) });
  const discard = writeCall('delete', '/api/background-tasks/uuid/{background_task_uuid}/upload', { params: byUuid(task.uuid) });
  const retry = useApiAction(async () => {
    const started = await retryCall.send();
    refresh(task.uuid);
    navigate(`/tasks/${started.background_task_uuid}`);
  });
  const closeAndRefresh = () => {
    setConfirm(null);
    refresh(task.uuid);
  };
  const info = job.data;
  const running = task.status === 'PENDING' || task.status === 'PROCESSING';
  if (!info) return null;
  return (
    <div className="task-actions">
      {info.retry_of && (
        <p className="muted">
          A retry of <Link to={`/tasks/${info.retry_of}`}>task {info.retry_of.slice(0, 8)}</Link>.
        </p>
      )}
      {info.retried_by && (
        <p>
          Retried as <Link to={`/tasks/${info.retried_by}`}>task {info.retried_by.slice(0, 8)}</Link>.
        </p>
      )}
      {running && info.cancel_requested_by !== null && (
        <p className="muted" role="status">
          Cancelling: the import stops after the batch it is writing.
        </p>
      )}
      {canWrite && (
        <div className="toolbar">
          {running && info.cancel_requested_by === null && (
            <button type="button" className="button button-danger" onClick={() => setConfirm('cancel')}>
              Cancel the import…
            </button>
          )}
          {info.retry_possible && (
            <ActionButton action={retry} busyLabel="Starting…">
              Retry the import
            </ActionButton>
          )}
          {info.upload_kept && task.status === 'FAILED' && (
            <button type="button" className="button button-quiet" onClick={() => setConfirm('discard')}>
              Discard the kept file…
            </button>
          )}
        </div>
      )}
      {task.status === 'FAILED' && !info.upload_kept && !info.retried_by && (
        <p className="muted">The uploaded file is no longer kept: to run this import again, upload the file again.</p>
      )}
      <ErrorNotice error={retry.error} onDismiss={retry.clearError} />
      {confirm === 'cancel' && (
        <ConfirmDialog
          title="Cancel this import?"
          confirmLabel="Cancel the import"
          busyLabel="Cancelling…"
          request={cancel.request}
          action={cancel.send}
          onDone={closeAndRefresh}
          onCancel={() => setConfirm(null)}
        >
          <p>
            {task.status === 'PENDING'
              ? 'It has not started: nothing will be written.'
              : 'It stops after the batch it is writing (at most 5,000 rows). Rows already written stay, and the results count them.'}{' '}
            The file is kept for 7 days so you can retry it.
          </p>
        </ConfirmDialog>
      )}
      {confirm === 'discard' && (
        <ConfirmDialog
          title="Discard the kept file?"
          confirmLabel="Discard the file"
          request={discard.request}
          action={discard.send}
          onDone={closeAndRefresh}
          onCancel={() => setConfirm(null)}
        >
          <p>
            The upload ({info.upload_bytes === null ? 'size unknown' : `${(info.upload_bytes / 1024).toFixed(0)} KB`}) is deleted, and this
            import can no longer be retried from it.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
