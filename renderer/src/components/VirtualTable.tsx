import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useRef } from 'react';

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
 * A table that renders only the rows in view (plus a few), so 100,000 rows scroll as
 * smoothly as 10. Rows have one fixed height; long cells are cut with an ellipsis and
 * shown whole in their tooltip.
 */
export function VirtualTable<R>({ label, columns, rows, rowKey, height = 420 }: { label: string; columns: Column<R>[]; rows: R[]; rowKey(row: R, index: number): string | number; height?: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const template = columns.map((c) => (c.grow ? `minmax(${c.width}rem, 1fr)` : `${c.width}rem`)).join(' ');
  const minWidth = `${columns.reduce((sum, c) => sum + c.width, 0)}rem`;
  const viewHeight = Math.min(height, ROW_HEIGHT * (rows.length + 1) + 2);
  return (
    <div
      ref={scroller}
      className="vtable"
      style={{ height: viewHeight }}
      role="table"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      tabIndex={0}
    >
      <div className="vtable-inner" style={{ minWidth }}>
      <div className="vtable-head" role="rowgroup">
        <div className="vtable-row" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
          {columns.map((c) => (
            <div key={c.key} className="vtable-cell" role="columnheader">
              {c.header}
            </div>
          ))}
        </div>
      </div>
      <div className="vtable-body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          return (
            <div
              key={rowKey(row, item.index)}
              className={`vtable-row ${item.index % 2 ? 'vtable-row-alt' : ''}`}
              role="row"
              aria-rowindex={item.index + 2}
              style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              {columns.map((c) => (
                <div key={c.key} className="vtable-cell" role="cell" title={c.title?.(row)}>
                  {c.cell(row)}
                </div>
              ))}
            </div>
          );
        })}
      </div>
      </div>
    </div>
  );
}
