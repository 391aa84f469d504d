import type { ReactNode } from 'react';
import type { ListPage } from '../api/use-list-page.ts';
import { CurlDisclosure } from './CurlDisclosure.tsx';
import { NoSuchPage } from './EmptyState.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import { AddressPagination } from './Pagination.tsx';
import { Panel } from './Panel.tsx';
import { Table } from './Table.tsx';
import { type TextFilterState, TextFilters } from './TextFilters.tsx';
import { Loading } from './QueryState.tsx';

export interface Column<T> {
  header: ReactNode;
  /** Class of the header cell. */
  className?: string;
  /** Class of the body cells. */
  cellClassName?: string;
  cell(item: T): ReactNode;
}

/** Edit and Delete buttons of a row, labelled with the row's name for screen readers and tests. */
export function actionsColumn<T>(name: (item: T) => string, onEdit: (item: T) => void, onDelete: (item: T) => void): Column<T> {
  return {
    header: 'Actions',
    cellClassName: 'actions-cell',
    cell: (item) => (
      <div className="row-actions">
        <button type="button" className="button button-small" aria-label={`Edit ${name(item)}`} onClick={() => onEdit(item)}>
          Edit
        </button>
        <button
          type="button"
          className="button button-small button-danger-quiet"
          aria-label={`Delete ${name(item)}`}
          onClick={() => onDelete(item)}
        >
          Delete
        </button>
      </div>
    ),
  };
}

/**
 * The body of every list page: its toolbar (filters), the error with Retry, a loading line, the
 * empty states (nothing yet / nothing matches / past the last page), the table, the pages and the
 * curl of the request. Rows are cells by `columns`, or whole rows by `row` (with `columns` as headers).
 */
export function ListView<T extends { uuid: string }>({
  paged,
  label,
  noun,
  columns,
  row,
  loadingText,
  empty,
  noMatch,
  textFilters,
  toolbar,
  aboveTable,
  onPage,
  children,
}: {
  paged: ListPage<T>;
  /** One and many of what is listed, e.g. ['QR code', 'QR codes']. */
  noun: [string, string];
  /** The table's accessible name; the plural noun by default. */
  label?: string;
  columns: Column<T>[];
  row?: (item: T) => ReactNode;
  /** "Loading QR codes…" by default. */
  loadingText?: string;
  /** What shows when there is nothing at all yet. */
  empty: ReactNode;
  /** What shows when filters leave nothing; absent when no filter is set. */
  noMatch?: ReactNode;
  /** Typed filters (useTextFilters), first in the toolbar; a problem with one shows under it. */
  textFilters?: TextFilterState;
  toolbar?: ReactNode;
  /** Shown above the table when it has rows. */
  aboveTable?: ReactNode;
  /** Called besides moving to another page. */
  onPage?: (page: number) => void;
  /** Notices between the error and the list. */
  children?: ReactNode;
}) {
  const { list, request, page, setParams, defaultPerPage } = paged;
  const many = noun[1];
  const data = list.data;
  const loading = list.isFetching;
  const emptyNow = data !== undefined && data.items.length === 0;
  return (
    <>
      {textFilters && <TextFilters state={textFilters} error={list.error} />}
      {toolbar}
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} fieldsShown={textFilters?.fieldNames} />
      {children}
      {loading && (!data || emptyNow) && <Loading>{loadingText ?? `Loading ${many}…`}</Loading>}
      {emptyNow &&
        !loading &&
        (noMatch ?? (page > 1 && data.total > 0 ? <NoSuchPage page={page} onFirstPage={() => setParams({ page: null })} /> : empty))}
      {data && data.items.length > 0 && (
        <>
          {aboveTable}
          <Table label={label ?? many.charAt(0).toUpperCase() + many.slice(1)} headings={columns} busy={loading}>
            {data.items.map(
              (item) =>
                row?.(item) ?? (
                  <tr key={item.uuid} data-uuid={item.uuid}>
                    {columns.map((c, i) => (
                      <td key={i} className={c.cellClassName}>
                        {c.cell(item)}
                      </td>
                    ))}
                  </tr>
                ),
            )}
          </Table>
        </>
      )}
      {data && data.total > 0 && (
        <AddressPagination
          data={data}
          noun={noun}
          defaultPerPage={defaultPerPage}
          setParams={(changes) => {
            if (typeof changes.page === 'number' || changes.page === null) onPage?.(changes.page ?? 1);
            setParams(changes);
          }}
        />
      )}
      {request && <CurlDisclosure request={request} />}
    </>
  );
}

/** What Refresh needs of a query. */
type Refreshable = { isFetching: boolean; refetch(): unknown };

/** Loads the list again now (live updates and polling do it otherwise). */
export function RefreshButton({ list }: { list: Refreshable }) {
  return (
    <button type="button" className="button button-small" onClick={() => void list.refetch()} disabled={list.isFetching}>
      Refresh
    </button>
  );
}

/** A panel titled by its heading, with Refresh beside it: a list that shares its page with more. */
export function ListPanel({ title, list, children }: { title: string; list: Refreshable; children: ReactNode }) {
  return (
    <Panel title={title} actions={<RefreshButton list={list} />}>
      {children}
    </Panel>
  );
}
