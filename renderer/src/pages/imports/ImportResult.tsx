import './imports.css';
import { useMemo } from 'react';
import type { UploadFile } from '../../api/request.ts';
import type { ApiRequest } from '../../api/client.ts';
import type { BackgroundTask } from '../../api/types.ts';
import { useFollowedTask } from '../../live/use-followed-task.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { isCancelledTask } from '../../../../common/cancelled.ts';
import { Link } from '../../router.tsx';
import { excludedRows, isRunning } from '../../api/task-format.ts';
import { importKindOf, mapsResults, taskImportKind } from '../../api/import-api.ts';
import { CompletedExcludedRows } from '../../components/import-results/ExcludedRowsActions.tsx';
import { ImportMap } from '../../components/import-results/ImportMap.tsx';
import { importStats } from '../../components/import-results/result-stats.ts';
import { FixedFileNote } from '../../components/import-results/FixedFileNote.tsx';
import { StatList } from '../../components/StatList.tsx';
import { RowWarnings } from '../../components/import-results/RowWarnings.tsx';
import { DateOrdersRead } from '../../components/import-results/DateOrdersRead.tsx';
import { Loading } from '../../components/QueryState.tsx';

/** Progress of an import task, then its counts and excluded rows. */
export function ImportResult({
  uuid,
  onFixedFile,
  fixing,
  fixRequest,
}: {
  uuid: string;
  onFixedFile?: (file: UploadFile) => void;
  fixing?: boolean;
  fixRequest?: ApiRequest;
}) {
  const query = useFollowedTask(uuid);
  const task = query.data;
  const rows = useMemo(() => (task ? excludedRows(task) : []), [task]);
  if (!task) {
    return (
      <section className="panel" aria-label="Import result">
        {query.isFetching && !task && <Loading>Loading the import task…</Loading>}
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      </section>
    );
  }
  const running = isRunning(task);
  const cancelled = isCancelledTask(task);
  const counts = importStats(task);
  return (
    <section className="panel" aria-labelledby="import-result-title">
      <div className="panel-header">
        <h2 id="import-result-title">
          {running
            ? 'Importing…'
            : cancelled
              ? 'The import was cancelled'
              : task.status === 'FAILED'
                ? 'The import failed'
                : 'Import finished'}
        </h2>
        <div className="panel-actions import-result-actions">
          <StatusBadge task={task} />
          <Link to={`/tasks/${task.uuid}`}>Task page</Link>
        </div>
      </div>
      <ProgressBar value={task.progress} label="Import progress" />
      {running && <p className="muted">The import runs on the server: you can leave this page and find it under Tasks.</p>}
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {cancelled ? (
        <div className="notice notice-info" role="status">
          <strong>The import was cancelled.</strong> {task.error_message}
        </div>
      ) : (
        task.status === 'FAILED' && (
          <div className="notice notice-error" role="alert">
            <strong>The import failed.</strong> {task.error_message ?? 'The server gave no reason.'}
          </div>
        )
      )}
      <FixedFileNote task={task} />
      <StatList stats={counts} label="Import counts" />
      <DateOrdersRead task={task} />
      <RowWarnings task={task} />
      {task.status === 'COMPLETED' && mapsResults(task) && (
        <ImportMap task={task} excludedListed={rows.length} excludedHref="#import-excluded-rows" within />
      )}
      {task.status === 'COMPLETED' && (
        <CompletedExcludedRows
          task={task}
          rows={rows}
          headingId="import-excluded-rows"
          none="No row was excluded: every row was imported."
          {...(onFixedFile ? { onFixedFile } : {})}
          {...(fixing !== undefined ? { fixing } : {})}
          {...(fixRequest ? { fixRequest } : {})}
        />
      )}
      {!running && <NextSteps task={task} />}
    </section>
  );
}

/** Where to go after an import: its task, the data it wrote. */
function NextSteps({ task }: { task: BackgroundTask }) {
  const kind = taskImportKind(task);
  const records = kind === null ? null : importKindOf(kind);
  return (
    <nav className="next-steps" aria-label="Next steps">
      <span className="muted">Next:</span>
      <Link to={`/tasks/${task.uuid}`} className="button button-small">
        Open the task
      </Link>
      {task.status === 'COMPLETED' && records && (
        <Link to={records.records_gui_path} className="button button-small">
          {records.records_label}
        </Link>
      )}
    </nav>
  );
}
