import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { type Column, VirtualTable } from '../../components/VirtualTable.tsx';
import { RowIssueList } from './RowIssueList.tsx';
import { type RowIssue, splitRowError } from './row-issues.ts';
import { cellText, type ExcludedRow, rowColumns } from './task-format.ts';
import { countOf } from '../../../../common/count-words.ts';

const issuesOf = (row: ExcludedRow): RowIssue[] =>
  splitRowError(row.error, Object.keys(row.row), {}, (column) => cellText(row.row[column]).trim() !== '');

const ROW_HINT = 'The line in the uploaded file (line 1 is the header row; JSON: the element, counting from 1)';

function RowDetails({ row, onClose }: { row: ExcludedRow; onClose(): void }) {
  const issues = issuesOf(row);
  const flagged = new Set(issues.map((i) => i.column));
  return (
    <section className="row-details" aria-label={`Excluded row ${row.rowNumber}`}>
      <div className="panel-header">
        <h3 title={`index ${row.index} in the API's results`}>
          Row {row.rowNumber}: {issues.length === 1 ? 'one problem' : `${issues.length} problems`}
        </h3>
        <button type="button" className="button button-small button-quiet" onClick={onClose}>
          Close
        </button>
      </div>
      <RowIssueList issues={issues} label={`Problems of row ${row.rowNumber}`} />
      <dl className="facts">
        {Object.entries(row.row).map(([key, value]) => (
          <div key={key} className={flagged.has(key) ? 'fact fact-problem' : 'fact'}>
            <dt>{key}</dt>
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
export function ExcludedRowsTable({ rows }: { rows: ExcludedRow[] }) {
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
      cell: (r) => r.rowNumber,
      title: (r) => `Line ${r.rowNumber} of the file; index ${r.index} in the API's results`,
    },
    { key: 'reason', header: 'Reason', width: 22, grow: true, cell: reasonSummary, title: (r) => r.error },
    ...keys.map<Column<ExcludedRow>>((key) => ({
      key: `row.${key}`,
      header: key,
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
            : `${shown.length.toLocaleString()} of ${rows.length.toLocaleString()} rows match`}
        </span>
        <span className="muted toolbar-end hint">
          <strong title={ROW_HINT}>Row</strong> is the line in the file. Click a row, or use the arrow keys and Enter, to see its problems
          one per line.
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
          onClose={() => {
            setOpened(null);
            setClosed(true);
          }}
        />
      )}
    </div>
  );
}
