import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useId, useRef } from 'react';

export interface Column<R> {
  key: string;
  header: string;
  /** Width in rem; a growing column takes at least this and shares the spare room. */
  width: number;
  grow?: boolean;
  cell(row: R): ReactNode;
  /** Text for the cell's title tooltip (long values are cut off on screen). */
  title?(row: R): string;
}

const ROW_HEIGHT = 36;

/**
 * A grid that renders only the rows in view (plus a few), so 100,000 rows scroll as smoothly
 * as 10. Rows have one fixed height; long cells are cut with an ellipsis and shown whole in
 * their tooltip. With onActivate, a row can be picked by click, or by the arrow keys and Enter
 * once the grid has focus.
 */
export function VirtualTable<R>({
  label,
  columns,
  rows,
  rowKey,
  height = 420,
  activeIndex = null,
  onActiveChange,
  onActivate,
}: {
  label: string;
  columns: Column<R>[];
  rows: R[];
  rowKey(row: R, index: number): string | number;
  height?: number;
  activeIndex?: number | null;
  onActiveChange?(index: number): void;
  onActivate?(index: number): void;
}) {
  const scroller = useRef<HTMLTableElement>(null);
  const idPrefix = useId();
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // The sticky header row sits above the rows inside the scroller.
    scrollPaddingStart: ROW_HEIGHT,
  });
  const template = columns.map((c) => (c.grow ? `minmax(${c.width}rem, 1fr)` : `${c.width}rem`)).join(' ');
  const minWidth = `${columns.reduce((sum, c) => sum + c.width, 0)}rem`;
  const viewHeight = Math.min(height, ROW_HEIGHT * (rows.length + 1) + 2);
  const pageRows = Math.max(1, Math.floor(viewHeight / ROW_HEIGHT) - 2);

  const move = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index));
    onActiveChange?.(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    if (!onActiveChange || rows.length === 0) return;
    const current = activeIndex ?? -1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(current + 1),
      ArrowUp: () => move(current - 1),
      PageDown: () => move(current + pageRows),
      PageUp: () => move(current - pageRows),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      Enter: () => activeIndex !== null && onActivate?.(activeIndex),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  // One click handler on the grid (next to its keyboard handler) picks the row under the pointer.
  const onClick = (event: MouseEvent<HTMLTableElement>) => {
    if (!onActivate || !(event.target instanceof Element)) return;
    const index = Number(event.target.closest('tr[data-index]')?.getAttribute('data-index'));
    if (!Number.isInteger(index) || index < 0 || index >= rows.length) return;
    onActiveChange?.(index);
    onActivate(index);
  };

  return (
    <table
      ref={scroller}
      className="vtable"
      style={{ height: viewHeight }}
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a virtualized data grid (WAI-ARIA APG pattern): focusable, arrow keys move the active row
      role="grid"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      aria-activedescendant={activeIndex !== null ? `${idPrefix}-${activeIndex}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <thead className="vtable-head" style={{ minWidth }}>
        <tr className="vtable-row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
          {columns.map((c) => (
            <th key={c.key} className="vtable-cell" scope="col">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="vtable-body" style={{ height: virtualizer.getTotalSize(), minWidth }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          const active = item.index === activeIndex;
          return (
            <tr
              key={rowKey(row, item.index)}
              id={`${idPrefix}-${item.index}`}
              data-index={item.index}
              className={`vtable-row ${item.index % 2 ? 'vtable-row-alt' : ''} ${active ? 'vtable-row-active' : ''} ${onActivate ? 'vtable-row-clickable' : ''}`}
              aria-rowindex={item.index + 2}
              aria-selected={onActiveChange ? active : undefined}
              style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              {columns.map((c) => (
                <td key={c.key} className="vtable-cell" title={c.title?.(row)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
