import 'react-data-grid/lib/styles.css';
import { type UIEvent, useEffect, useMemo, useRef, useState } from 'react';
import { type Column, DataGrid, type DataGridHandle, type RenderEditCellProps, type RowsChangeData } from 'react-data-grid';
import { type DraftRow, draftRowLabel } from '../../api/draft-api.ts';

/** A place in the filtered rows: the row once its page is read. */
export interface Slot {
  index: number;
  row: DraftRow | null;
}

export interface ActiveCell {
  row: DraftRow;
  column: string | null;
}

const ROW_HEIGHT = 34;
export const GRID_HEIGHT = 520;

function fileRowTitle(row: DraftRow, sheet: string | null): string {
  return `${draftRowLabel(row, sheet)}${sheet ? '' : ' of the file'}; line ${row.row_id} of this grid`;
}

function problemText(row: DraftRow): string {
  if (row.state === 'imported') return 'Imported';
  if (!row.problem) return row.checked ? 'No problem' : 'Changed; the import checks it';
  return row.checked ? row.problem : `${row.problem} (found before the last replace; the import checks it again)`;
}

/** The cell editor: text typed over the cell, committed with Enter or by leaving it, Escape puts it back. */
function CellEditor({ row, column, onRowChange, onClose }: RenderEditCellProps<Slot>) {
  const current = row.row;
  if (!current) return null;
  return (
    <input
      className="draft-cell-editor"
      aria-label={`${column.key} of row ${current.row_id}`}
      // biome-ignore lint/a11y/noAutofocus: the grid opens the editor on the cell the user chose; typing goes there.
      autoFocus
      value={current.cells[column.key] ?? ''}
      onChange={(event) => onRowChange({ ...row, row: { ...current, cells: { ...current.cells, [column.key]: event.target.value } } })}
      onBlur={() => onClose(true, false)}
    />
  );
}

/**
 * The draft's rows in react-data-grid: every column of the kind, the problem beside the row
 * number and at its cell (marked, with the problem as its tooltip). Rows are virtualised; the
 * page tells which rows are on screen (onVisibleRows) and reads their pages as they scroll in.
 */
export function DraftGrid({
  columns,
  titles = {},
  columnsSettled = true,
  sheet = null,
  slots,
  editable,
  onEdit,
  onActiveCell,
  onVisibleRows,
}: {
  columns: readonly string[];
  /** The file's own name of a column (column -> header), shown before the kind's. */
  titles?: Readonly<Record<string, string>>;
  /** False while the column order may still change: the grid scrolls to the first problem once it is settled. */
  columnsSettled?: boolean;
  /** The workbook's sheet the rows came from, where it has several. */
  sheet?: string | null;
  slots: readonly Slot[];
  editable: boolean;
  onEdit(row: DraftRow, column: string, value: string): void;
  onActiveCell(cell: ActiveCell | null): void;
  onVisibleRows(first: number, last: number): void;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const gridColumns = useMemo<Column<Slot>[]>(
    () => [
      {
        key: '#',
        name: 'Row',
        width: 64,
        frozen: true,
        renderCell: ({ row }) => (
          <span className="draft-row-id" title={row.row ? fileRowTitle(row.row, sheet) : undefined}>
            {row.row ? (row.row.row_number ?? '') : ''}
          </span>
        ),
      },
      {
        key: 'problem',
        name: 'Problem',
        width: 300,
        frozen: true,
        cellClass: (slot) => (slot.row?.state === 'imported' ? 'draft-imported' : slot.row?.problem ? 'draft-problem-text' : 'draft-ok'),
        renderCell: ({ row }) =>
          row.row ? (
            <span title={problemText(row.row)} data-problem-of={row.row.row_id}>
              {problemText(row.row)}
            </span>
          ) : (
            <span className="muted">Loading…</span>
          ),
      },
      ...columns.map<Column<Slot>>((column) => ({
        key: column,
        name: titles[column] && titles[column] !== column ? `${titles[column]} · ${column}` : column,
        width: column === 'location' ? 280 : 150,
        resizable: true,
        editable: (slot) => editable && slot.row?.state === 'open',
        cellClass: (slot) =>
          slot.row && slot.row.state === 'open' && slot.row.problem_column === column ? 'draft-cell-problem' : undefined,
        renderCell: ({ row }) => {
          const current = row.row;
          if (!current) return null;
          const marked = current.state === 'open' && current.problem_column === column && current.problem;
          return (
            <span data-cell={`${current.row_id}:${column}`} title={marked ? (current.problem ?? undefined) : undefined}>
              {current.cells[column] ?? ''}
            </span>
          );
        },
        renderEditCell: CellEditor,
      })),
    ],
    [columns, titles, editable, sheet],
  );

  // The grid opens scrolled to the first cell to fix, however wide the screen and the columns before it.
  const grid = useRef<DataGridHandle>(null);
  const scrolledToProblem = useRef(false);
  useEffect(() => {
    if (scrolledToProblem.current || !columnsSettled) return;
    const rowIdx = slots.findIndex((slot) => slot.row?.state === 'open' && slot.row.problem_column);
    const column = slots[rowIdx]?.row?.problem_column;
    const idx = gridColumns.findIndex((c) => c.key === column);
    if (rowIdx < 0 || idx < 0) return;
    scrolledToProblem.current = true;
    grid.current?.scrollToCell({ idx, rowIdx });
  }, [slots, gridColumns, columnsSettled]);

  const visible = (top: number) => {
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 1);
    onVisibleRows(first, first + Math.ceil(GRID_HEIGHT / ROW_HEIGHT) + 1);
  };

  const onRowsChange = (rows: Slot[], change: RowsChangeData<Slot>) => {
    for (const index of change.indexes) {
      const slot = rows[index];
      const before = slots[index]?.row;
      if (!slot?.row || !before) continue;
      const value = slot.row.cells[change.column.key] ?? '';
      if (value !== (before.cells[change.column.key] ?? '')) onEdit(before, change.column.key, value);
    }
  };

  return (
    <DataGrid
      ref={grid}
      className="draft-grid rdg-light"
      aria-label="Excluded rows to fix"
      columns={gridColumns}
      rows={slots}
      rowKeyGetter={(slot) => slot.index}
      rowHeight={ROW_HEIGHT}
      style={{ blockSize: Math.min(GRID_HEIGHT, ROW_HEIGHT * (Math.max(slots.length, 4) + 1) + 2) }}
      rowClass={(slot) => (slot.row?.state === 'imported' ? 'draft-row-imported' : undefined)}
      onRowsChange={onRowsChange}
      onActivePositionChange={({ row, column }) =>
        onActiveCell(
          row?.row ? { row: row.row, column: column && column.key !== '#' && column.key !== 'problem' ? column.key : null } : null,
        )
      }
      onScroll={(event: UIEvent<HTMLDivElement>) => {
        const top = event.currentTarget.scrollTop;
        if (Math.abs(top - scrollTop) >= ROW_HEIGHT) {
          setScrollTop(top);
          visible(top);
        }
      }}
    />
  );
}
