import './excluded-rows-actions.css';
import type { UploadFile } from '../../api/request.ts';
import { type ComponentProps, type ReactNode, useState } from 'react';
import type { ApiRequest } from '../../api/client.ts';
import type { BackgroundTask } from '../../api/types.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { type ExcludedRow, excludedTotal } from '../../api/task-format.ts';
import { DEFAULT_IMPORT_HANDLER, errorReportRequest, saveAttachment, taskImportHandler } from '../../api/import-api.ts';
import { CurlDisclosure } from '../CurlDisclosure.tsx';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { PickFileButton } from '../FilePicker.tsx';
import { SelectField } from '../SelectField.tsx';
import { ExcludedRowsTable } from './ExcludedRowsTable.tsx';
import { FixInPlaceButton } from './FixInPlaceButton.tsx';
import { useFileColumns } from './use-file-columns.ts';

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
