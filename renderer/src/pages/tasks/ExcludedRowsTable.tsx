import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { type Column, VirtualTable } from '../../components/VirtualTable.tsx';
import { cellText, type ExcludedRow, rowColumns } from './task-format.ts';

function RowDetails({ row, onClose }: { row: ExcludedRow; onClose(): void }) {
  return (
    <section className="row-details" aria-label={`Excluded row ${row.rowNumber}`}>
      <div className="panel-header">
        <h3>
          Row {row.rowNumber} <span className="muted">(index {row.index})</span>
        </h3>
        <button type="button" className="button button-small button-quiet" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="row-details-reason">{row.error}</p>
      <dl className="facts">
        {Object.entries(row.row).map(([key, value]) => (
          <div key={key} className="fact">
            <dt>{key}</dt>
            <dd>{cellText(value) || <span className="muted">(empty)</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Excluded rows with their reason and the row as it was sent; any number of rows, windowed. */
export function ExcludedRowsTable({ rows }: { rows: ExcludedRow[] }) {
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState<number | null>(null);
  const [opened, setOpened] = useState<ExcludedRow | null>(null);
  const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
  const keys = useMemo(() => rowColumns(rows), [rows]);
  const shown = useMemo(() => {
    if (deferredFilter === '') return rows;
    return rows.filter((r) => r.error.toLowerCase().includes(deferredFilter) || Object.values(r.row).some((v) => cellText(v).toLowerCase().includes(deferredFilter)));
  }, [rows, deferredFilter]);
  useEffect(() => setActive(null), [shown]);

  const columns: Column<ExcludedRow>[] = [
    { key: 'index', header: 'Index', width: 5, cell: (r) => r.index },
    { key: 'row', header: 'Row', width: 5, cell: (r) => r.rowNumber },
    { key: 'reason', header: 'Reason', width: 22, grow: true, cell: (r) => r.error, title: (r) => r.error },
    ...keys.map<Column<ExcludedRow>>((key) => ({
      key: `row.${key}`,
      header: key,
      width: 9,
      cell: (r) => cellText(r.row[key]),
      title: (r) => cellText(r.row[key]),
    })),
  ];

  return (
    <div className="excluded">
      <div className="toolbar">
        <label className="inline-field">
          Find in excluded rows
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Reason or value" />
        </label>
        <span className="muted" role="status">
          {deferredFilter === '' ? `${rows.length.toLocaleString()} ${rows.length === 1 ? 'row' : 'rows'}` : `${shown.length.toLocaleString()} of ${rows.length.toLocaleString()} rows match`}
        </span>
        <span className="muted toolbar-end hint">Click a row, or use the arrow keys and Enter, to see it whole.</span>
      </div>
      {shown.length > 0 ? (
        <VirtualTable
          label="Excluded rows"
          columns={columns}
          rows={shown}
          rowKey={(r, i) => `${r.index}:${i}`}
          activeIndex={active}
          onActiveChange={setActive}
          onActivate={(i) => setOpened(shown[i] ?? null)}
        />
      ) : (
        <p className="muted">No excluded row contains “{filter}”.</p>
      )}
      {opened && <RowDetails row={opened} onClose={() => setOpened(null)} />}
    </div>
  );
}
