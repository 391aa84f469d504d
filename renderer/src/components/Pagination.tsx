import { SelectField } from './SelectField.tsx';

const PER_PAGE_CHOICES = [10, 25, 50, 100];

export function Pagination({
  page,
  pages,
  total,
  perPage,
  noun,
  onPage,
  onPerPage,
}: {
  page: number;
  pages: number;
  total: number;
  perPage: number;
  noun: [string, string];
  onPage(page: number): void;
  onPerPage(perPage: number): void;
}) {
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <nav className="pagination" aria-label="Pages">
      <span className="pagination-summary" role="status">
        {total === 0
          ? `No ${noun[1]}`
          : `${first.toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()} ${total === 1 ? noun[0] : noun[1]}`}
      </span>
      <SelectField label="Per page" value={perPage} onChange={(v) => onPerPage(Number(v))}>
        {PER_PAGE_CHOICES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </SelectField>
      <div className="pagination-buttons">
        <button type="button" className="button button-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous page
        </button>
        <span className="pagination-page">
          Page {Math.min(page, Math.max(pages, 1))} of {Math.max(pages, 1)}
        </span>
        <button type="button" className="button button-small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next page
        </button>
      </div>
    </nav>
  );
}

type ParamChanges = Record<string, string | number | null | undefined>;

/**
 * Pagination of a list page that keeps page and per_page in the address (the defaults, page 1 and
 * the page's `defaultPerPage`, left out). `reset` names further parameters a page change clears.
 */
export function AddressPagination({
  data,
  noun,
  setParams,
  reset = {},
  defaultPerPage = 10,
}: {
  data: { page: number; pages: number; total: number; per_page: number };
  noun: [string, string];
  setParams(changes: ParamChanges): void;
  reset?: ParamChanges;
  defaultPerPage?: number;
}) {
  return (
    <Pagination
      page={data.page}
      pages={data.pages}
      total={data.total}
      perPage={data.per_page}
      noun={noun}
      onPage={(p) => setParams({ page: p === 1 ? null : p, ...reset })}
      onPerPage={(n) => setParams({ per_page: n === defaultPerPage ? null : n, page: null, ...reset })}
    />
  );
}
