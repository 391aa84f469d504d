import { useDeferredValue, useMemo, useState } from 'react';
import { type Column, VirtualTable } from '../../components/VirtualTable.tsx';
import { cellText, type ExcludedRow, rowColumns } from './task-format.ts';

/** Excluded rows with their reason and the row as it was sent; any number of rows, windowed. */
export function ExcludedRowsTable({ rows }: { rows: ExcludedRow[] }) {
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
  const keys = useMemo(() => rowColumns(rows), [rows]);
  const shown = useMemo(() => {
    if (deferredFilter === '') return rows;
    return rows.filter((r) => r.error.toLowerCase().includes(deferredFilter) || Object.values(r.row).some((v) => cellText(v).toLowerCase().includes(deferredFilter)));
  }, [rows, deferredFilter]);

  const columns: Column<ExcludedRow>[] = [
    { key: 'index', header: 'Index', width: 5, cell: (r) => r.index },
    { key: 'row', header: 'Row', width: 5, cell: (r) => r.rowNumber },
    { key: 'reason', header: 'Reason', width: 22, grow: true, cell: (r) => r.error, title: (r) => r.error },
    ...keys.map<Column<ExcludedRow>>((key) => ({
      key: `row.${key}`,
      header: key,
      width: 10,
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
          {deferredFilter === '' ? `${rows.length.toLocaleString()} rows` : `${shown.length.toLocaleString()} of ${rows.length.toLocaleString()} rows match`}
        </span>
      </div>
      {shown.length > 0 ? (
        <VirtualTable label="Excluded rows" columns={columns} rows={shown} rowKey={(r, i) => `${r.index}:${i}`} />
      ) : (
        <p className="muted">No excluded row contains “{filter}”.</p>
      )}
    </div>
  );
}
