import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { type Column, VirtualTable } from '../VirtualTable.tsx';
import { RowIssueList } from './RowIssueList.tsx';
import { type RowIssue, splitRowError } from './row-issues.ts';
import { cellText, type ExcludedRow, rowColumns, rowLabel } from '../../api/task-format.ts';
import { countOf } from '../../../../common/count-words.ts';

const issuesOf = (row: ExcludedRow): RowIssue[] =>
  splitRowError(row.error, Object.keys(row.row), {}, (column) => cellText(row.row[column]).trim() !== '');

const ROW_HINT = "The row as your file shows it: the sheet's row in a workbook, the line in a CSV, the element counting from 1 in JSON";

/** The file's own column names (its header row) and the kind's column each fills. */
export interface FileColumns {
  columns: readonly { header: string; column: string }[];
  /** The workbook's sheet the rows are on, where the workbook has several (null: CSV, JSON, one sheet). */
  sheet: string | null;
}

const NO_FILE_COLUMNS: FileColumns = { columns: [], sheet: null };

/** A kind's column by the name the file gave it: "Ext Ref" for qr_code_external_reference_id; the column's own name when the file used it. */
function fileHeaderOf(file: FileColumns, column: string): string {
  return file.columns.find((c) => c.column === column)?.header.trim() || column;
}

/** "Row 8", "Row 8 of sheet Sites". */
function rowWhere(row: ExcludedRow, file: FileColumns): string {
  return file.sheet && row.rowNumber !== null ? `${rowLabel(row)} of sheet ${file.sheet}` : rowLabel(row);
}

function RowDetails({ row, file, onClose }: { row: ExcludedRow; file: FileColumns; onClose(): void }) {
  const issues = issuesOf(row);
  const flagged = new Set(issues.map((i) => i.column));
  return (
    <section className="row-details" aria-label={`Excluded ${rowLabel(row).toLowerCase()}`}>
      <div className="panel-header">
        <h3 title={`index ${row.index} in the API's results`}>
          {rowWhere(row, file)}: {issues.length === 1 ? 'one problem' : `${issues.length} problems`}
        </h3>
        <button type="button" className="button button-small button-quiet" onClick={onClose}>
          Close
        </button>
      </div>
      <RowIssueList issues={issues} label={`Problems of ${rowLabel(row).toLowerCase()}`} />
      <dl className="facts">
        {Object.entries(row.row).map(([key, value]) => (
          <div key={key} className={flagged.has(key) ? 'fact fact-problem' : 'fact'}>
            <dt>
              {fileHeaderOf(file, key)}
              {fileHeaderOf(file, key) !== key && <span className="muted field-name"> {key}</span>}
            </dt>
            <dd>{cellText(value) || <span className="muted">(empty)</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * "row 57" finds that row; "57" finds row 57 and rows with 57 in a cell (a reference, a postcode);
 * other text is looked for in every cell (name, reference, address) and in the reason.
 */
function matchesFilter(row: ExcludedRow, filter: string): boolean {
  const inCells = () => Object.values(row.row).some((v) => cellText(v).toLowerCase().includes(filter));
  const number = /^(row\s*)?(\d+)$/.exec(filter);
  if (number) return row.rowNumber === Number(number[2]) || (!number[1] && inCells());
  return inCells() || row.error.toLowerCase().includes(filter);
}

/** The reason cell: the first problem in the import's words, and how many more (the details list them all). */
function reasonSummary(row: ExcludedRow): string {
  const issues = issuesOf(row);
  const first = issues[0]?.text ?? row.error;
  return issues.length > 1 ? `${issues.length} problems: ${first}` : first;
}

/** Excluded rows with their reason and the row as it was sent; any number of rows, windowed. */
export function ExcludedRowsTable({ rows, file = NO_FILE_COLUMNS }: { rows: ExcludedRow[]; file?: FileColumns }) {
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState<number | null>(null);
  // The first row's problems are shown at once; a click or Enter shows another row's.
  const [opened, setOpened] = useState<ExcludedRow | null>(() => rows[0] ?? null);
  const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
  const keys = useMemo(() => rowColumns(rows), [rows]);
  const shown = useMemo(
    () => (deferredFilter === '' ? rows : rows.filter((r) => matchesFilter(r, deferredFilter))),
    [rows, deferredFilter],
  );
  const [closed, setClosed] = useState(false);
  // The details show a row the list shows: the one opened, else the first match of a search; none when nothing matches.
  const detail = closed ? null : opened !== null && shown.includes(opened) ? opened : deferredFilter !== '' ? (shown[0] ?? null) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter result clears the active row
  useEffect(() => setActive(null), [shown]);

  const columns: Column<ExcludedRow>[] = [
    {
      key: 'row',
      header: 'Row',
      width: 4,
      cell: (r) => r.rowNumber ?? `(${r.index})`,
      title: (r) =>
        r.rowNumber === null
          ? `The service gives only the index (${r.index}), not the row in the file`
          : `Row ${r.rowNumber} of the ${file.sheet ? `sheet ${file.sheet}` : 'file'}; index ${r.index} in the API's results`,
    },
    { key: 'reason', header: 'Reason', width: 22, grow: true, cell: reasonSummary, title: (r) => r.error },
    ...keys.map<Column<ExcludedRow>>((key) => ({
      key: `row.${key}`,
      header: fileHeaderOf(file, key) === key ? key : `${fileHeaderOf(file, key)} · ${key}`,
      width: 9,
      cell: (r) => {
        const text = cellText(r.row[key]);
        return issuesOf(r).some((i) => i.column === key) ? <span className="cell-problem">{text || '(empty)'}</span> : text;
      },
      title: (r) => cellText(r.row[key]),
    })),
  ];

  return (
    <div className="excluded">
      <div className="toolbar">
        <label className="inline-field">
          Find in excluded rows
          <input
            type="search"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              setClosed(false);
            }}
            placeholder="Name, reference, row number or reason"
          />
        </label>
        <span className="muted" role="status">
          {deferredFilter === ''
            ? countOf(rows.length, 'row')
            : `${shown.length.toLocaleString()} of ${countOf(rows.length, 'row')} ${shown.length === 1 ? 'matches' : 'match'}`}
        </span>
        <span className="muted toolbar-end hint">
          <strong title={ROW_HINT}>Row</strong> is the row as your file shows it{file.sheet ? ` (of its sheet ${file.sheet})` : ''}. Click a
          row, or use the arrow keys and Enter, to see its problems one per line.
        </span>
      </div>
      {shown.length > 0 ? (
        <VirtualTable
          label="Excluded rows"
          columns={columns}
          rows={shown}
          rowKey={(r, i) => `${r.index}:${i}`}
          activeIndex={active}
          onActiveChange={setActive}
          onActivate={(i) => {
            setOpened(shown[i] ?? null);
            setClosed(false);
          }}
        />
      ) : (
        <p className="muted">No match: no excluded row has “{filter}” in its name, reference, row number, cells or reason.</p>
      )}
      {detail && (
        <RowDetails
          row={detail}
          file={file}
          onClose={() => {
            setOpened(null);
            setClosed(true);
          }}
        />
      )}
    </div>
  );
}
