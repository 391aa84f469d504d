import { useId, useState } from 'react';
import type { ActiveCell } from './DraftGrid.tsx';
import { draftRowLabel } from '../../api/draft-api.ts';

/** Find and replace in one column of every row of the draft. */
export function ReplaceForm({
  columns,
  busy,
  onReplace,
}: {
  columns: readonly string[];
  busy: boolean;
  onReplace(body: { column: string; find: string; replace: string; whole_cell: boolean; match_case: boolean }): void;
}) {
  const id = useId();
  const [column, setColumn] = useState(columns[0] ?? '');
  const [find, setFind] = useState('');
  const [replace, setReplace] = useState('');
  const [wholeCell, setWholeCell] = useState(false);
  return (
    <form
      className="toolbar draft-replace"
      aria-label="Find and replace"
      onSubmit={(event) => {
        event.preventDefault();
        if (find !== '') onReplace({ column, find, replace, whole_cell: wholeCell, match_case: false });
      }}
    >
      <span className="inline-field">
        <label htmlFor={`${id}-column`}>In column</label>
        <select id={`${id}-column`} value={column} onChange={(e) => setColumn(e.target.value)}>
          {columns.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </span>
      <span className="inline-field">
        <label htmlFor={`${id}-find`}>Find</label>
        <input id={`${id}-find`} value={find} onChange={(e) => setFind(e.target.value)} />
      </span>
      <span className="inline-field">
        <label htmlFor={`${id}-replace`}>Replace with</label>
        <input id={`${id}-replace`} value={replace} onChange={(e) => setReplace(e.target.value)} />
      </span>
      <label className="checkbox">
        <input type="checkbox" checked={wholeCell} onChange={(e) => setWholeCell(e.target.checked)} /> Whole cell
      </label>
      <button type="submit" className="button" disabled={busy || find === ''}>
        Replace all
      </button>
    </form>
  );
}

/** Fill down, delete and undo, for the cell chosen in the grid. */
export function RowTools({
  active,
  lastRowId,
  canUndo,
  lastAction,
  busy,
  onFillDown,
  onDelete,
  onUndo,
}: {
  active: ActiveCell | null;
  lastRowId: number;
  canUndo: boolean;
  lastAction: string | null;
  busy: boolean;
  onFillDown(column: string, from: number, to: number): void;
  onDelete(rowId: number): void;
  onUndo(): void;
}) {
  const id = useId();
  const [through, setThrough] = useState('');
  const chosen = active?.row.state === 'open' ? active : null;
  const to = Number(through) || lastRowId;
  return (
    <div className="toolbar draft-row-tools">
      <span className="muted draft-active" aria-live="polite">
        {chosen ? `${draftRowLabel(chosen.row)}${chosen.column ? `, ${chosen.column}` : ''}` : 'Choose a cell in the grid'}
      </span>
      <span className="inline-field">
        <label htmlFor={`${id}-through`}>Fill down through grid line</label>
        <input
          id={`${id}-through`}
          className="draft-through"
          inputMode="numeric"
          placeholder={String(lastRowId)}
          value={through}
          onChange={(e) => setThrough(e.target.value.replace(/\D/g, ''))}
        />
      </span>
      <button
        type="button"
        className="button"
        disabled={busy || !chosen?.column || to <= (chosen?.row.row_id ?? 0)}
        onClick={() => chosen?.column && onFillDown(chosen.column, chosen.row.row_id, to)}
      >
        Fill down
      </button>
      <button type="button" className="button" disabled={busy || !chosen} onClick={() => chosen && onDelete(chosen.row.row_id)}>
        Delete row
      </button>
      <button type="button" className="button" disabled={busy || !canUndo} title={lastAction ?? undefined} onClick={onUndo}>
        Undo{lastAction ? `: ${lastAction}` : ''}
      </button>
    </div>
  );
}
