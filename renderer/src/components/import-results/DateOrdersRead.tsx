import type { ResultsOf } from '../../api/task-format.ts';

interface DateOrderRead {
  header: string;
  order: 'day_first' | 'month_first' | null;
  source: 'request' | 'file' | 'setting';
  evidence: string | null;
  conflicting: boolean;
}

const ORDER_WORDS = { day_first: 'day first (25/03/2026)', month_first: 'month first (03/25/2026)' } as const;

function isDateOrderRead(value: unknown): value is DateOrderRead {
  return typeof value === 'object' && value !== null && typeof (value as DateOrderRead).header === 'string';
}

/** Why a column's dates were read in their order, in words. */
function why(read: DateOrderRead): string {
  if (read.source === 'request') return 'as you chose';
  if (read.source === 'file') return `the file proves it: “${read.evidence ?? ''}” can only be read that way`;
  return read.conflicting
    ? "the organization's date order (Settings): the column's dates disagree, so the file proves nothing"
    : "the organization's date order (Settings): every date in the column reads both ways";
}

/** How an import read the dates written with slashes in each date column, and why (the results' `date_orders`). */
export function DateOrdersRead({ task }: { task: ResultsOf }) {
  const list = task.results?.date_orders;
  const reads = Array.isArray(list) ? list.filter(isDateOrderRead) : [];
  if (reads.length === 0) return null;
  return (
    <ul className="date-orders-read" aria-label="How dates were read">
      {reads.map((read) => (
        <li key={read.header}>
          Dates in “{read.header}” were read {read.order ? ORDER_WORDS[read.order] : 'year-month-day only'}: {why(read)}.
        </li>
      ))}
    </ul>
  );
}
