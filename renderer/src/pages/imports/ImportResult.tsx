import './imports.css';
import { type ComponentProps, type ReactNode, useMemo, useState } from 'react';
import type { ApiRequest } from '../../api/client.ts';
import type { BackgroundTask } from '../../api/types.ts';
import type { UploadFile } from '../../api/upload.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { getRequest } from '../../api/get-query.ts';
import { useQuery } from '@tanstack/react-query';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { isCancelledTask } from '../../../../common/cancelled.ts';
import { useLiveStore } from '../../live/live-store.ts';
import { taskQuery } from '../tasks/task-query.ts';
import { Link } from '../../router.tsx';
import { ExcludedRowsTable } from '../../components/import-results/ExcludedRowsTable.tsx';
import { useFileColumns } from '../../components/import-results/use-file-columns.ts';
import { type ExcludedRow, excludedRows, excludedTotal, isRunning } from '../../api/task-format.ts';
import { FixInPlaceButton } from '../import-drafts/FixInPlaceButton.tsx';
import { PickFileButton } from './FilePicker.tsx';
import {
  DEFAULT_IMPORT_HANDLER,
  errorReportRequest,
  importKindOf,
  mapsResults,
  saveAttachment,
  taskImportHandler,
  taskImportKind,
} from '../../api/import-api.ts';
import { ImportMap } from '../tasks/ImportMap.tsx';
import { importStats } from '../../components/import-results/result-stats.ts';
import { FixedFileNote } from '../tasks/FixedFileNote.tsx';
import { StatList } from '../../components/StatList.tsx';
import { RowWarnings } from '../../components/import-results/RowWarnings.tsx';
import { DateOrdersRead } from '../../components/import-results/DateOrdersRead.tsx';
import { Loading } from '../../components/QueryState.tsx';

const POLL_WITHOUT_LIVE_MS = 2_000;
/** With the live stream open a running task is still read now and then: an end that raced the page's first read is not missed. */
const POLL_WITH_LIVE_MS = 3_000;

/** A task that follows live events (live/live-queries.ts), and is read again while it runs. */
export function useFollowedTask(uuid: string) {
  const params = { path: { background_task_uuid: uuid } };
  const liveOpen = useLiveStore((s) => s.status === 'open');
  const query = useQuery({
    ...taskQuery(uuid),
    refetchInterval: (q) => (q.state.data && !isRunning(q.state.data) ? false : liveOpen ? POLL_WITH_LIVE_MS : POLL_WITHOUT_LIVE_MS),
  });
  return { ...query, request: getRequest('/api/background-tasks/uuid/{background_task_uuid}', params) };
}

/** The error report download (CSV or XLSX) and "Import the fixed file", for an import with excluded rows. */
export function ExcludedRowsActions({
  task,
  onFixedFile,
  fixing,
  fixRequest,
  reportRequest = errorReportRequest,
}: {
  task: BackgroundTask;
  onFixedFile?: (file: UploadFile) => void;
  fixing?: boolean;
  /** How the fixed file is sent, for its curl command. */
  fixRequest?: ApiRequest;
  /** Where the report downloads from; a remote task's comes through the proxy. */
  reportRequest?: (task: BackgroundTask, format: 'csv' | 'xlsx') => ApiRequest;
}) {
  // A workbook's report is a workbook too: by the format read (import_type), else the file's name.
  const [format, setFormat] = useState<'csv' | 'xlsx'>(() =>
    /^(xlsx|xls|ods)$/.test(String(task.metadata?.import_type ?? '')) || /\.(xlsx|xls|ods)$/i.test(String(task.metadata?.filename ?? ''))
      ? 'xlsx'
      : 'csv',
  );
  const report = useApiAction(() => saveAttachment(reportRequest(task, format), `errors-${task.uuid}.${format}`));
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <div className="excluded-actions">
      <div className="toolbar">
        <SelectField label="Report format" value={format} onChange={(v) => setFormat(v === 'xlsx' ? 'xlsx' : 'csv')}>
          <option value="csv">CSV</option>
          <option value="xlsx">Excel (.xlsx)</option>
        </SelectField>
        <button
          type="button"
          className="button"
          disabled={report.running}
          onClick={() => void report.run().then((name) => setSaved(name ?? null))}
        >
          {report.running ? 'Downloading…' : 'Download error report'}
        </button>
        {onFixedFile && <FixInPlaceButton task={task} />}
        {onFixedFile && (
          <PickFileButton
            label={fixing ? 'Importing the fixed file…' : 'Import the fixed file'}
            onFile={onFixedFile}
            disabled={fixing}
            className="button button-primary"
          />
        )}
      </div>
      {saved && (
        <p className="muted" role="status">
          Saved {saved}.
        </p>
      )}
      <ErrorNotice error={report.error} onDismiss={report.clearError} />
      <p className="field-hint">
        The error report has every excluded row with its columns, <code>row_number</code> and <code>error</code>. Fix the rows in it, save
        it, and import it as it is with “Import the fixed file”: the importer ignores the <code>row_number</code> and <code>error</code>{' '}
        columns, and rows already imported are matched, not duplicated.
        {onFixedFile && taskImportHandler(task) !== DEFAULT_IMPORT_HANDLER && (
          <>
            {' '}
            The fixed file goes through the import handler <strong>{taskImportHandler(task)}</strong>, like the original, so its column
            titles are read the same way.
          </>
        )}
      </p>
      <CurlDisclosure request={reportRequest(task, format)} download label="Show curl for the error report" />
      {onFixedFile && fixRequest && <CurlDisclosure request={fixRequest} label="Show curl for importing the fixed file" />}
    </div>
  );
}

/** A completed import's excluded rows: the first ones listed, then the error report and "Import the fixed file". */
export function CompletedExcludedRows({
  task,
  rows,
  none,
  headingId,
  ...actions
}: ComponentProps<typeof ExcludedRowsActions> & {
  rows: ExcludedRow[];
  /** What is said when no row was excluded. */
  none: ReactNode;
  /** The heading's id, for a link to the list. */
  headingId?: string;
}) {
  const total = excludedTotal(task, rows.length);
  const file = useFileColumns(task.uuid);
  return (
    <>
      <h3 id={headingId}>Excluded rows</h3>
      {total === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <>
          {total > rows.length && (
            <p className="notice notice-info">
              The first {rows.length.toLocaleString()} of {total.toLocaleString()} excluded rows are listed. The error report has all of
              them.
            </p>
          )}
          <ExcludedRowsTable rows={rows} {...(file ? { file } : {})} />
          <ExcludedRowsActions task={task} {...actions} />
        </>
      )}
    </>
  );
}

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
