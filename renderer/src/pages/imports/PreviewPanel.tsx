import { Fragment, type ReactNode } from 'react';
import { RowIssueList } from '../tasks/RowIssueList.tsx';
import { type RowIssue, splitRowError } from '../tasks/row-issues.ts';
import { cellText } from '../tasks/task-format.ts';
import type { ImportPreview } from './import-api.ts';
import { Table } from '../../components/Table.tsx';

function ColumnMatches({ preview, templateLink }: { preview: ImportPreview; templateLink: ReactNode }) {
  const byColumn = new Map(preview.columns.matched.map((m) => [m.column, m.header]));
  const missing = preview.columns.missing_required;
  return (
    <div className="preview-columns">
      <h3>Columns</h3>
      {missing.length > 0 && (
        <div className="notice notice-error" role="alert">
          <div className="notice-body">
            <p>
              <strong>
                The file has no {missing.join(', ')} column{missing.length > 1 ? 's' : ''}, so the import would be refused.
              </strong>{' '}
              Add {missing.length > 1 ? 'these columns' : 'this column'} to the header row (its first row), or rename the column that holds{' '}
              {missing.length > 1 ? 'them' : 'it'}. The template shows every column the importer reads:
            </p>
            {templateLink}
          </div>
        </div>
      )}
      <Table
        label="Expected columns and the file's columns"
        headings={['Expected column', 'Column in the file']}
        className="table table-compact"
      >
        {preview.expected_columns.map((column) => {
          const header = byColumn.get(column);
          const required = preview.required_columns.includes(column);
          return (
            <tr key={column} className={!header && missing.includes(column) ? 'row-problem' : undefined}>
              <th scope="row">
                <code>{column}</code>
                {required && <span className="required-mark"> required</span>}
              </th>
              <td>
                {header ? (
                  <code>{header}</code>
                ) : missing.includes(column) ? (
                  <span className="field-problem">Missing</span>
                ) : required && preview.format !== 'json' ? (
                  <span className="muted">not in the file: made from the other columns</span>
                ) : (
                  <span className="muted">not in the file</span>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      {preview.columns.unknown.length > 0 && (
        <p className="muted">
          Ignored (not a column the importer reads):{' '}
          {preview.columns.unknown.map((h, i) => (
            <span key={h}>
              {i > 0 ? ', ' : ''}
              <code>{h || '(empty)'}</code>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}

/** The problems of each previewed row, one per line, with the column each is about (file titles; messages may use field names). */
function rowIssues(preview: ImportPreview, row: ImportPreview['rows'][number]): RowIssue[] {
  const aliases = Object.fromEntries(preview.columns.matched.map((m) => [m.column, m.header]));
  const filled = (column: string) => cellText(row.values[column]).trim() !== '';
  return row.problems.flatMap((problem) => splitRowError(problem, preview.headers, aliases, filled));
}

function FirstRows({ preview }: { preview: ImportPreview }) {
  const failing = preview.rows.filter((r) => r.problems.length > 0).length;
  const width = preview.headers.length + 2;
  return (
    <div className="preview-rows">
      <h3>First rows</h3>
      {preview.rows.length === 0 ? (
        <p className="muted">The file has no data rows after its header.</p>
      ) : (
        <>
          <p className={failing > 0 ? 'field-problem' : 'muted'} role="status" aria-label="Preview verdict">
            {failing > 0
              ? `${failing} of the first ${preview.rows.length} rows would be excluded by the import, for the reasons listed under them. They can also be fixed after the import from the error report.`
              : `${preview.rows.length === 1 ? 'The first row passes' : `The first ${preview.rows.length} rows pass`} every check the import makes (addresses located, services, tags and time zones looked up). Nothing was imported.`}
          </p>
          <div className="table-scroll preview-table">
            <table className="table table-compact" aria-label="First rows of the file">
              <thead>
                <tr>
                  <th scope="col" title="The line in the file (line 1 is the header row)">
                    Row
                  </th>
                  <th scope="col">Check</th>
                  {preview.headers.map((h, i) => (
                    <th scope="col" key={`${h}:${i}`}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) => {
                  const issues = rowIssues(preview, row);
                  const flagged = new Set(row.problems.length > 0 ? issues.map((i) => i.column) : []);
                  return (
                    <Fragment key={row.index}>
                      <tr className={row.problems.length > 0 ? 'row-problem' : undefined} data-row={row.row_number}>
                        <td>{row.row_number}</td>
                        <td className="preview-check">
                          {row.problems.length > 0 ? (
                            <span className="field-problem">Will fail{issues.length > 1 ? ` (${issues.length} problems)` : ''}</span>
                          ) : (
                            <span className="ok-mark">OK</span>
                          )}
                        </td>
                        {preview.headers.map((h, i) => (
                          <td
                            key={`${h}:${i}`}
                            className={flagged.has(h) ? 'truncate cell-problem' : 'truncate'}
                            title={cellText(row.values[h])}
                          >
                            {cellText(row.values[h])}
                          </td>
                        ))}
                      </tr>
                      {(row.problems.length > 0 || row.notes.length > 0) && (
                        <tr className={row.problems.length > 0 ? 'row-problem row-detail' : 'row-detail'}>
                          <td colSpan={width}>
                            <div className="row-detail-body">
                              {row.problems.length > 0 && <RowIssueList issues={issues} label={`Problems of row ${row.row_number}`} />}
                              {row.notes.length > 0 && (
                                <ul className="row-notes" aria-label={`How row ${row.row_number} was read`}>
                                  {row.notes.map((note) => (
                                    <li key={note}>{note}</li>
                                  ))}
                                </ul>
                              )}
                            </div>
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
          {preview.more_rows && <p className="muted">The file has more rows; the preview shows the first {preview.rows.length}.</p>}
        </>
      )}
    </div>
  );
}

export function PreviewPanel({ preview, templateLink }: { preview: ImportPreview; templateLink: ReactNode }) {
  return (
    <div className="preview">
      <p className="muted">
        Read as <strong>{preview.format.toUpperCase()}</strong>. {preview.columns.matched.length} of its {preview.headers.length} columns
        are used.
      </p>
      <ColumnMatches preview={preview} templateLink={templateLink} />
      <FirstRows preview={preview} />
    </div>
  );
}
