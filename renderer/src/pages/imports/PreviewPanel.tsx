import type { ImportPreview } from '../../api/types.ts';
import { Fragment, type ReactNode } from 'react';
import { countOf } from '../../../../common/count-words.ts';
import { RowIssueList } from '../../components/import-results/RowIssueList.tsx';
import { type RowIssue, splitRowError } from '../../components/import-results/row-issues.ts';
import { cellText } from '../../api/task-format.ts';
import { Table } from '../../components/Table.tsx';

function ColumnMatches({ preview, templateLink }: { preview: ImportPreview; templateLink: ReactNode }) {
  const byColumn = new Map(preview.columns.matched.map((m) => [m.column, m.header]));
  const missing = preview.columns.missing_required;
  const used = preview.expected_columns.filter((column) => byColumn.has(column)).length;
  return (
    <div className="preview-columns">
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
      {/* Folded unless a required column is missing: the first rows and their verdict come first. */}
      <details className="preview-columns-details" open={missing.length > 0}>
        <summary>
          <strong>Columns:</strong> {used} of the {preview.expected_columns.length} columns the importer reads are in the file
          {preview.columns.unknown.length > 0 ? `; ${preview.columns.unknown.length} ignored` : ''}
        </summary>
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
      </details>
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

/** The problems (or warnings) of a previewed row, one per line, with the column each is about (file titles; messages may use field names). */
function rowIssues(preview: ImportPreview, row: ImportPreview['rows'][number], messages: readonly string[]): RowIssue[] {
  const aliases = Object.fromEntries(preview.columns.matched.map((m) => [m.column, m.header]));
  const filled = (column: string) => cellText(row.values[column]).trim() !== '';
  return messages.flatMap((message) => splitRowError(message, preview.headers, aliases, filled));
}

/** What the first rows would give, first thing in the preview: excluded rows, rows with a warning, or all clear. */
function PreviewVerdict({ preview }: { preview: ImportPreview }) {
  const failing = preview.rows.filter((r) => r.problems.length > 0).length;
  const warned = preview.rows.filter((r) => r.warnings.length > 0).length;
  const shown = preview.rows.length;
  if (shown === 0) return null;
  const warnedText =
    warned > 0
      ? ` ${warned === 1 ? 'One row has' : `${warned} rows have`} a warning: ${warned === 1 ? 'it' : 'they'} would be imported (warnings are not exclusions), but check the value was read as you meant.`
      : '';
  return (
    <p className={failing > 0 ? 'field-problem preview-verdict' : 'muted preview-verdict'} role="status" aria-label="Preview verdict">
      {failing > 0
        ? `${failing} of the first ${countOf(shown, 'row')} would be excluded by the import, for the reasons listed under them. They can also be fixed after the import from the error report.`
        : `${shown === 1 ? 'The first row passes' : `The first ${shown} rows pass`} every check the import makes (addresses located, services, tags and time zones looked up). Nothing was imported.`}
      {warnedText}
    </p>
  );
}

function FirstRows({ preview }: { preview: ImportPreview }) {
  const width = preview.headers.length + 2;
  return (
    <div className="preview-rows">
      <h3>First rows</h3>
      {preview.rows.length === 0 ? (
        <p className="muted">The file has no data rows after its header.</p>
      ) : (
        <>
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
                  const issues = rowIssues(preview, row, row.problems);
                  const warnings = rowIssues(preview, row, row.warnings);
                  const flagged = new Set(row.problems.length > 0 ? issues.map((i) => i.column) : []);
                  const warnedCells = new Set(warnings.map((i) => i.column));
                  return (
                    <Fragment key={row.index}>
                      <tr className={row.problems.length > 0 ? 'row-problem' : undefined} data-row={row.row_number}>
                        <td>{row.row_number}</td>
                        <td className="preview-check">
                          {row.problems.length > 0 ? (
                            <span className="field-problem">Will fail{issues.length > 1 ? ` (${issues.length} problems)` : ''}</span>
                          ) : warnings.length > 0 ? (
                            <span className="warn-mark">OK, with a warning</span>
                          ) : (
                            <span className="ok-mark">OK</span>
                          )}
                        </td>
                        {preview.headers.map((h, i) => (
                          <td
                            key={`${h}:${i}`}
                            className={flagged.has(h) ? 'truncate cell-problem' : warnedCells.has(h) ? 'truncate cell-warning' : 'truncate'}
                            title={cellText(row.values[h])}
                          >
                            {cellText(row.values[h])}
                          </td>
                        ))}
                      </tr>
                      {(row.problems.length > 0 || row.warnings.length > 0 || row.notes.length > 0) && (
                        <tr className={row.problems.length > 0 ? 'row-problem row-detail' : 'row-detail'}>
                          <td colSpan={width}>
                            <div className="row-detail-body">
                              {row.problems.length > 0 && <RowIssueList issues={issues} label={`Problems of row ${row.row_number}`} />}
                              {warnings.length > 0 && (
                                <RowIssueList
                                  issues={warnings}
                                  label={`Warnings of row ${row.row_number}`}
                                  className="row-issue-list row-warning-issues"
                                />
                              )}
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

/** The preview: its verdict first, then `layout` (where the table is and what each column fills) for every format, then the first rows. */
export function PreviewPanel({ preview, templateLink, layout }: { preview: ImportPreview; templateLink: ReactNode; layout: ReactNode }) {
  return (
    <div className="preview">
      <p className="muted">
        Read as <strong>{preview.format.toUpperCase()}</strong>. {preview.columns.matched.length} of its {preview.headers.length} columns
        are used.
      </p>
      <PreviewVerdict preview={preview} />
      {layout}
      <ColumnMatches preview={preview} templateLink={templateLink} />
      <FirstRows preview={preview} />
    </div>
  );
}
