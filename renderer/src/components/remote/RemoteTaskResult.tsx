import './remote.css';
import { useMemo } from 'react';
import type { ApiRequest, UploadFile } from '../../api/request.ts';
import { describeError } from '../../api/describe-error.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { ProgressBar } from '../ProgressBar.tsx';
import { StatusBadge } from '../StatusBadge.tsx';
import { Link } from '../../router.tsx';
import { CompletedExcludedRows } from '../import-results/ExcludedRowsActions.tsx';
import { ExcludedRowsTable } from '../import-results/ExcludedRowsTable.tsx';
import { excludedRows, excludedRowsOf, isRunning } from '../../api/task-format.ts';
import { answerCounts, remoteErrorReportRequest, remoteTaskPage } from '../../api/remote-api.ts';
import { REMOTE_POLL } from '../../api/remote-poll.ts';
import type { RemoteTaskWatch } from '../../api/use-remote-task.ts';
import { importStats } from '../import-results/result-stats.ts';
import { StatList } from '../StatList.tsx';
import { Panel } from '../Panel.tsx';
import { Loading } from '../QueryState.tsx';

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** How the polling goes: when it last answered, a failure and the next attempt, or why it stopped. */
export function PollStatus({ watch, where }: { watch: RemoteTaskWatch; where: string }) {
  const { task, error, failures, retryInMs, stopped, checkedAt, retry } = watch;
  if (stopped === 'gave-up') {
    const plain = describeError(error);
    return (
      <div className="notice notice-error" role="alert">
        <div className="notice-body">
          <strong>Stopped checking the task after {REMOTE_POLL.maxFailures} failed attempts in a row.</strong> The last one said:{' '}
          {plain.message} The task itself goes on at {where}; check again once it can be reached.
        </div>
        <div className="notice-actions">
          <button type="button" className="button button-small" onClick={retry}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  if (stopped === 'final') return <ErrorNotice error={error} onRetry={retry} />;
  if (error && retryInMs !== null) {
    return (
      <div className="poll-failing">
        <ErrorNotice error={error} />
        <p className="muted" role="status">
          Check {failures} of {REMOTE_POLL.maxFailures} failed; trying again in {seconds(retryInMs)}.
        </p>
      </div>
    );
  }
  if (task && isRunning(task) && checkedAt) {
    return (
      <p className="muted" role="status">
        The task runs at {where}. Last checked at {timeOfDay.format(checkedAt)}; checked every 2 to 5 s until it ends.
      </p>
    );
  }
  return null;
}

/**
 * A task on a profile's service: progress while it runs, then the counts, the excluded rows and
 * the error report (through the proxy). On the Imports page and on the remote task page.
 */
export function RemoteTaskResult({
  profile,
  baseUrl,
  watch,
  title,
  onFixedFile,
  fixing,
  fixRequest,
}: {
  profile: string;
  baseUrl: string | undefined;
  watch: RemoteTaskWatch;
  /** A heading of its own (on the Imports page); the task page has its heading above. */
  title?: boolean;
  onFixedFile?: (file: UploadFile) => void;
  fixing?: boolean;
  fixRequest?: ApiRequest;
}) {
  const task = watch.task;
  const rows = useMemo(() => (task ? excludedRows(task) : []), [task]);
  const where = baseUrl ? `${profile} (${baseUrl})` : profile;
  if (!task) {
    return (
      <section className="panel" aria-label="Remote import result">
        {!watch.error && <Loading>Asking {where} for the task…</Loading>}
        <PollStatus watch={watch} where={where} />
      </section>
    );
  }
  const running = isRunning(task);
  const heading = running
    ? `Importing on ${profile}…`
    : task.status === 'FAILED'
      ? `The import failed on ${profile}`
      : `Import finished on ${profile}`;
  return (
    <section className="panel" aria-labelledby="remote-result-title">
      <div className="panel-header">
        {title ? <h2 id="remote-result-title">{heading}</h2> : <h2 id="remote-result-title">Progress and results</h2>}
        {title && (
          <div className="panel-actions import-result-actions">
            <StatusBadge task={task} />
            <Link to={remoteTaskPage(profile, task.uuid)}>Remote task page</Link>
          </div>
        )}
      </div>
      <ProgressBar value={task.progress} label="Import progress" />
      <PollStatus watch={watch} where={where} />
      {task.status === 'FAILED' && (
        <div className="notice notice-error" role="alert">
          <strong>The import failed on {profile}.</strong> {task.error_message ?? 'The service gave no reason.'}
        </div>
      )}
      <StatList stats={importStats(task)} label="Import counts" />
      {task.status === 'COMPLETED' && (
        <CompletedExcludedRows
          task={task}
          rows={rows}
          none={<>No row was excluded: every row was imported on {profile}.</>}
          reportRequest={(t, format) => remoteErrorReportRequest(profile, t, format)}
          {...(onFixedFile ? { onFixedFile } : {})}
          {...(fixing !== undefined ? { fixing } : {})}
          {...(fixRequest ? { fixRequest } : {})}
        />
      )}
    </section>
  );
}

/** A sync answer from a service that does not name its task: the counts and excluded rows from the answer itself. */
export function RemoteSyncAnswer({ profile, body }: { profile: string; body: Record<string, unknown> }) {
  const rows = useMemo(() => excludedRowsOf(body), [body]);
  return (
    <Panel title={<>Import finished on {profile}</>} actions={null}>
      <StatList stats={answerCounts(body)} label="Import counts" />
      <h3>Excluded rows</h3>
      {rows.length === 0 ? (
        <p className="muted">No row was excluded: every row was imported on {profile}.</p>
      ) : (
        <>
          <ExcludedRowsTable rows={rows} />
          <p className="field-hint">
            The service answered with the result but did not name a background task, so there is no error report to download: the excluded
            rows above are all it sent.
          </p>
        </>
      )}
    </Panel>
  );
}
