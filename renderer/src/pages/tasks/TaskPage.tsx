import type { UploadFile } from '../../api/request.ts';
import { useMemo } from 'react';
import { useApiAction } from '../../api/use-api-action.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoading } from '../../components/QueryState.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { isCancelledTask } from '../../../../common/cancelled.ts';
import { Link, navigate } from '../../router.tsx';
import { ExcludedRowsActions } from '../../components/import-results/ExcludedRowsActions.tsx';
import { useFollowedTask } from '../../live/use-followed-task.ts';
import { DEFAULT_IMPORT_HANDLER, importRequest, mapsResults, taskImportHandler, taskImportKind } from '../../api/import-api.ts';
import { handOverFixedFile } from '../../api/fixed-file-handover.ts';
import { ExcludedRowsTable } from '../../components/import-results/ExcludedRowsTable.tsx';
import { useFileColumns } from '../../components/import-results/use-file-columns.ts';
import { RowWarnings } from '../../components/import-results/RowWarnings.tsx';
import { DateOrdersRead } from '../../components/import-results/DateOrdersRead.tsx';
import { type ExcludedRow, excludedRows, fileName, excludedTotal, isRunning, taskTypeLabel } from '../../api/task-format.ts';
import { importStats } from '../../components/import-results/result-stats.ts';
import { ImportMap } from '../../components/import-results/ImportMap.tsx';
import { FixedFileNote } from '../../components/import-results/FixedFileNote.tsx';
import { TaskActions } from './TaskActions.tsx';
import { useSignedIn } from '../../auth/session-store.ts';
import { StatList } from '../../components/StatList.tsx';
import { Panel } from '../../components/Panel.tsx';
import { TaskMetadata } from '../../components/TaskMetadata.tsx';

/** An import task's excluded rows under the file's own column names (its import job says them). */
function TaskExcludedRows({ uuid, rows }: { uuid: string; rows: ExcludedRow[] }) {
  const file = useFileColumns(uuid);
  return <ExcludedRowsTable rows={rows} {...(file ? { file } : {})} />;
}

export function TaskPage({ uuid }: { uuid: string }) {
  // Follows live events; a finished event reloads the task, so an answer that left before it cannot win.
  const query = useFollowedTask(uuid);
  const { session } = useSignedIn();
  const { data: task, request } = query;
  const running = task ? isRunning(task) : false;

  const rows = useMemo(() => (task ? excludedRows(task) : []), [task]);
  const importKind = task ? taskImportKind(task) : null;
  const handler = task ? taskImportHandler(task) : undefined;
  // The fixed file is previewed on the Imports page first, like any file, and sent from there.
  const fix = useApiAction(async (file: UploadFile) => {
    if (!task || !importKind) return;
    handOverFixedFile({ file, kind: importKind, handler: handler ?? DEFAULT_IMPORT_HANDLER, fixesTask: task.uuid });
    navigate('/imports');
  });
  const back = <Link to="/tasks">← All tasks</Link>;

  if (!task) {
    return <PageLoading title="Task" back={back} query={query} loading="Loading the task…" />;
  }

  const counts = importStats(task);
  const total = excludedTotal(task, rows.length);
  return (
    <>
      <PageHeader
        title={taskTypeLabel(task.task_type)}
        description={
          <>
            {fileName(task) ? `${fileName(task)} · ` : ''}Task {task.uuid}
          </>
        }
        back={back}
        actions={<StatusBadge task={task} />}
      />
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      <Panel title="Progress">
        <ProgressBar value={task.progress} label="Task progress" />
        {isCancelledTask(task) ? (
          <div className="notice notice-info" role="status">
            <strong>The import was cancelled.</strong> {task.error_message}
          </div>
        ) : (
          task.status === 'FAILED' && (
            <div className="notice notice-error" role="alert">
              <strong>The task failed.</strong> {task.error_message ?? 'The server gave no reason.'}
            </div>
          )
        )}
        {running && <p className="muted">The task is running; this page updates by itself.</p>}
        {importKind && <TaskActions task={task} canWrite={session.role !== 'viewer'} />}
      </Panel>

      <Panel title="Results">
        <FixedFileNote task={task} />
        {task.results === null ? (
          <p className="muted">{running ? 'Results appear when the task finishes.' : 'This task has no results.'}</p>
        ) : counts.length > 0 ? (
          <StatList stats={counts} />
        ) : (
          <p className="muted">The results hold no counts.</p>
        )}
        <DateOrdersRead task={task} />
        <RowWarnings task={task} />
      </Panel>

      {mapsResults(task) && task.status === 'COMPLETED' && <ImportMap task={task} excludedListed={rows.length} />}

      <Panel title="Excluded rows" actions={null} id="excluded-rows">
        {total > 0 && task.status !== 'PENDING' && task.status !== 'PROCESSING' && (
          <>
            <ExcludedRowsActions
              task={task}
              {...(importKind
                ? {
                    onFixedFile: (file: UploadFile) => void fix.run(file),
                    fixing: fix.running,
                    fixRequest: importRequest(
                      importKind,
                      task.organization_uuid,
                      'background',
                      'fixed-error-report.csv',
                      handler,
                      task.uuid,
                    ),
                  }
                : {})}
            />
            <ErrorNotice error={fix.error} onDismiss={fix.clearError} />
          </>
        )}
        {rows.length === 0 ? (
          task.results === null ? (
            <p className="muted">Rows the import rejects are listed here with the reason.</p>
          ) : (
            <EmptyState title="No rows were excluded">
              <p>Every row of this import was accepted.</p>
            </EmptyState>
          )
        ) : (
          <>
            {total > rows.length && (
              <p className="notice notice-info">
                The task keeps the first {rows.length.toLocaleString()} of {total.toLocaleString()} excluded rows. The error report has all
                of them.
              </p>
            )}
            <TaskExcludedRows uuid={task.uuid} rows={rows} />
          </>
        )}
      </Panel>

      <Panel title="Details">
        <TaskMetadata task={task} />
        <CurlDisclosure request={request} />
      </Panel>
    </>
  );
}
