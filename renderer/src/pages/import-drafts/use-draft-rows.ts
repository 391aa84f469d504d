import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type DraftRow, draftRowsQuery, PAGE_ROWS, type RowFilter } from '../../api/draft-api.ts';
import type { Slot } from './DraftGrid.tsx';

/**
 * The draft's rows as the grid's slots: the total from the first page, and the pages of the rows
 * on screen read as they scroll in (TanStack Query keeps them). An edit's answer overrides its row
 * until the pages are read again.
 */
export function useDraftRows(uuid: string, filter: RowFilter) {
  const [visible, setVisible] = useState<[number, number]>([0, 0]);
  const [overrides, setOverrides] = useState<ReadonlyMap<number, DraftRow>>(new Map());
  const first = useQuery(draftRowsQuery(uuid, 0, filter));
  const total = first.data?.total ?? 0;
  const pages = useMemo(() => {
    const from = Math.floor(visible[0] / PAGE_ROWS);
    const to = Math.min(Math.floor(visible[1] / PAGE_ROWS), Math.max(0, Math.ceil(total / PAGE_ROWS) - 1));
    const list: number[] = [];
    for (let page = Math.max(1, from); page <= to; page++) list.push(page);
    return list;
  }, [visible, total]);
  const more = useQueries({ queries: pages.map((page) => draftRowsQuery(uuid, page, filter)) });
  const loaded = [first.data, ...more.map((q) => q.data)];
  // When any page's answer changes: its time of arrival (a new answer always has a later one).
  const stamp = [first.dataUpdatedAt, ...more.map((q) => q.dataUpdatedAt)].join(',');
  // The empty slots of a total, made once per total: a page's answer copies the array (fast) instead of making 100,000 objects again.
  const empty = useMemo(() => Array.from({ length: total }, (_, index): Slot => ({ index, row: null })), [total]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: stamp stands for the pages' answers (loaded is a new array each render).
  const base = useMemo(() => {
    const slots = empty.slice();
    const places = new Map<number, number>();
    for (const page of loaded) {
      if (!page) continue;
      page.rows.forEach((row, i) => {
        const index = page.offset + i;
        if (index < total) {
          slots[index] = { index, row };
          places.set(row.row_id, index);
        }
      });
    }
    return { slots, places };
  }, [empty, stamp]);
  // An edit changes one row: the others keep their slot objects (the grid redraws only what changed).
  const slots = useMemo(() => {
    if (overrides.size === 0) return base.slots;
    const patched = base.slots.slice();
    for (const [rowId, newer] of overrides) {
      const index = base.places.get(rowId);
      if (index !== undefined) patched[index] = { index, row: newer };
    }
    return patched;
  }, [base, overrides]);
  return {
    slots,
    total,
    /** The first page's rows once read (for the column order). */
    firstRows: first.data?.rows,
    error: first.error ?? more.find((q) => q.error)?.error,
    loading: first.isPending,
    refetch: () => void first.refetch(),
    setVisible: (a: number, b: number) => setVisible((v) => (v[0] === a && v[1] === b ? v : [a, b])),
    override: (row: DraftRow) => setOverrides((map) => new Map(map).set(row.row_id, row)),
    clearOverrides: () => setOverrides(new Map()),
  };
}
